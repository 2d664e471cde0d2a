/**
 * Which server and broker the engine runs on, and so which of the {@link org.exactlyonce.broker} views
 * and endpoint controls it uses.
 */
package org.exactlyonce.internal.platform;
