/** The benchmark's server side: the XA consumer the engine is compared with, and its sender. */
package org.exactlyonce.bench;
