package org.exactlyonce.outage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The first attempt, outside Fault Tolerance: which of its failures go on to the retries. */
class DatabaseCallsTest {

    @Test
    void anAttemptThatSucceedsAnswersItsResult() throws Exception {
        assertEquals("booked", DatabaseCalls.once(() -> "booked"));
    }

    @Test
    void aLostConnectionOrADeadlockIsTransientAndRetried() {
        for (String sqlState : new String[] {"08006", "40P01", "40001"}) {
            TransientDatabaseFailure failure = assertThrows(
                    TransientDatabaseFailure.class,
                    () -> DatabaseCalls.once(() -> {
                        throw new IllegalStateException("wrapped", new SQLException("failed", sqlState));
                    }),
                    sqlState);
            assertEquals(sqlState, ((SQLException) failure.getCause().getCause()).getSQLState());
        }
    }

    @Test
    void aFailureOfTheMessageItselfIsNotRetriedHere() {
        SQLException tooLong = new SQLException("value too long", "22001");
        assertSame(
                tooLong,
                assertThrows(
                        SQLException.class,
                        () -> DatabaseCalls.once(() -> {
                            throw tooLong;
                        })));
    }

    @Test
    void aTransientFailureRaisedByTheAttemptPassesAsItIs() {
        TransientDatabaseFailure raised = new TransientDatabaseFailure(new SQLException("gone", "08003"));
        assertSame(
                raised,
                assertThrows(
                        TransientDatabaseFailure.class,
                        () -> DatabaseCalls.once(() -> {
                            throw raised;
                        })));
    }
}
