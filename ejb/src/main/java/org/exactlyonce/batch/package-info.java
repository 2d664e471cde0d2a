/**
 * Many messages per transaction: {@link org.exactlyonce.batch.BatchedReceiver} receives on a thread of
 * the application's and processes each message through a {@link org.exactlyonce.batch.BatchProcessor};
 * in the server, {@link org.exactlyonce.batch.BatchedReceivers} builds and runs it.
 */
package org.exactlyonce.batch;
