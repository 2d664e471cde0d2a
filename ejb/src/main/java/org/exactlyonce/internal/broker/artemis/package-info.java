/** ActiveMQ Artemis as a broker view: inside WildFly through its management beans, standalone through management messages. */
package org.exactlyonce.internal.broker.artemis;
