/** The admin console's REST API: consumers' figures, processed-ID look-up, parked messages, purge now. */
package org.exactlyonce.admin;
