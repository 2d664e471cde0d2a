/**
 * MicroProfile Health checks of the engine: readiness (the database answers and is not found down by
 * the consumers, the processed-ID table has its key, the messaging engine accepts connections) and
 * liveness (the purge keeps running). They live in the console's WAR: checks in the EJB module were
 * reported once for every WAR of the application that sees its beans.
 */
package org.exactlyonce.admin.health;
