package org.exactlyonce.bench;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The benchmark's only endpoint, {@code /exactly-once-bench/api/xa-credits}. */
@ApplicationPath("/api")
public class BenchApplication extends Application {}
