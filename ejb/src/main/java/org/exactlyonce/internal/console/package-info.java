/** What the admin console, a module of its own, reads and does in the engine: one facade. */
package org.exactlyonce.internal.console;
