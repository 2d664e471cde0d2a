package org.exactlyonce.sample.ledger;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** Account balances: the sum of an account's credits, so a double effect shows as a wrong number. */
@Path("/accounts")
@Produces(MediaType.APPLICATION_JSON)
public class AccountsResource {

    /** The ledger's column: receipts' accounts are longer than those credited. */
    private static final int MAX_ACCOUNT_LENGTH = 100;

    @Inject
    Ledger ledger;

    @GET
    @Path("/{account}")
    public Balance balance(@PathParam("account") String account) {
        Requests.checked("account", account, MAX_ACCOUNT_LENGTH);
        return new Balance(account, ledger.balanceOf(account), ledger.creditsOf(account));
    }

    /** The number of credits each message ID booked to the account. */
    @GET
    @Path("/{account}/effects")
    public Map<String, Long> effects(@PathParam("account") String account) {
        Requests.checked("account", account, MAX_ACCOUNT_LENGTH);
        return ledger.effectsByMessage(account);
    }

    /** An account's balance and the number of credits it adds up. */
    public record Balance(String account, long balance, long credits) {}
}
