package org.exactlyonce.admin;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The admin console's REST API, under {@code /exactly-once/api}. */
@ApplicationPath("/api")
public class AdminApplication extends Application {}
