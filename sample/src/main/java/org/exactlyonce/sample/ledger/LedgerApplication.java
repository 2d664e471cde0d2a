package org.exactlyonce.sample.ledger;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The ledger's REST API, under {@code /ledger/api}. */
@ApplicationPath("/api")
public class LedgerApplication extends Application {}
