package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The crash suite (see {@link CrashSuite}) through a chain: credits to the consumer that books each
 * and sends its receipt through the outbox, receipts to the consumer that books them. The server
 * halts at every point of the chain in turn, the outbox's relay between its send and its delete
 * included. A short run in every build, a long one on demand with {@code
 * -Dcrash-suite.chain-messages=5000 -Dcrash-suite.chain-crashes=40}.
 */
class OutboxChainIT {

    private final CrashSuite suite = new CrashSuite(TestServer.of(new LedgerClient()));

    @Test
    void everyCreditAndItsReceiptHaveExactlyOneEffectAfterCrashesAtEveryPointOfTheChain() throws Exception {
        CrashSuite.Result result = suite.runChainAtEveryPoint();

        System.out.println(result.summary());
        System.out.println("outbox-chain: crashed at " + result.crashes());
        assertTrue(result.lost().isEmpty() && result.duplicated().isEmpty(), result.details());
        assertTrue(result.crashes().stream().noneMatch(crash -> crash.contains("not reached")), result.details());
    }
}
