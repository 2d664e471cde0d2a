/**
 * The points of the protocol where a crash matters, fired as CDI events so that tests can crash a server
 * at exactly one of them.
 */
package org.exactlyonce.protocol;
