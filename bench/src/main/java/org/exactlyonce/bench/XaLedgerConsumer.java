package org.exactlyonce.bench;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import javax.sql.DataSource;

/**
 * The classic Jakarta EE answer the engine is measured against: a container-managed transaction
 * spans the message's receipt and the booking on an XA data source, and the two commit together by
 * two-phase commit. It books the same ledger row as the sample's consumers, by one JDBC insert.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "jms/bench/CreditsXa"),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class XaLedgerConsumer implements MessageListener {

    private static final String BOOK =
            "INSERT INTO LEDGER_CREDIT (MESSAGE_ID, ACCOUNT, AMOUNT, BOOKED_AT) VALUES (?, ?, ?, ?)";

    @Resource(lookup = "jdbc/ledgerXa")
    DataSource ledger;

    @Override
    public void onMessage(Message message) {
        try (JsonReader reader = Json.createReader(new StringReader(message.getBody(String.class)));
                Connection connection = ledger.getConnection();
                PreparedStatement book = connection.prepareStatement(BOOK)) {
            JsonObject order = reader.readObject();
            book.setString(1, order.getString("messageId"));
            book.setString(2, order.getString("account"));
            book.setLong(3, order.getJsonNumber("amount").longValue());
            book.setTimestamp(4, Timestamp.valueOf(LocalDateTime.now(ZoneOffset.UTC)));
            book.executeUpdate();
        } catch (JMSException | SQLException e) {
            // a runtime exception rolls the transaction back: the broker redelivers
            throw new IllegalStateException("booking failed, the broker will redeliver", e);
        }
    }
}
