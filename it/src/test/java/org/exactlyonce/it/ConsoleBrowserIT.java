package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console page in headless Chromium, signed in as the demo admin: the figures change after
 * messages are sent, a message ID is found, a parked message is replayed, and what a message carried
 * is shown as text. Keeps a screenshot, taken while the message is parked, at {@code target/console.png}.
 */
class ConsoleBrowserIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** The console's tables of messages, each row keyed by its message's ID. */
    private static final String PARKED = "#parked";

    private static final String OUTBOX = "#outbox";

    private final LedgerClient ledger = new LedgerClient();
    private final String account = "browser-" + UUID.randomUUID();
    private WebDriver browser;
    private WebDriverWait wait;

    @BeforeEach
    void openBrowser() {
        ChromeOptions options = new ChromeOptions()
                .setBinary(System.getProperty("it.chromium", "/usr/bin/chromium"))
                .addArguments(
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-background-networking",
                        // the test server's own self-signed certificate
                        "--ignore-certificate-errors",
                        "--window-size=1400,1000");
        ChromeDriverService driver = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of(System.getProperty("it.chromedriver", "/usr/bin/chromedriver"))
                        .toFile())
                .build();
        browser = new ChromeDriver(driver, options);
        wait = new WebDriverWait(browser, WAIT);
        // the page redraws its figures every few seconds: an element read during a redraw is gone
        wait.ignoring(StaleElementReferenceException.class);
    }

    @AfterEach
    void closeBrowser() {
        browser.quit();
    }

    @Test
    void anAdminSeesTheFiguresFindsAnIdAndReplaysAParkedMessage() throws IOException {
        // the demo admin's credentials in the address: the browser keeps them for the page's API calls
        String base = Phase.baseUrl();
        browser.get(base.replace("://", "://admin:admin@") + "/exactly-once/");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("user"), "admin (admin)"));
        long processedBefore = wait.until(page -> Long.parseLong(processedCell().getText()));

        List<String> ids = List.of(newId(), newId(), newId());
        ids.forEach(id -> ledger.sendCredit(id, account, 2));
        wait.until(page -> Long.parseLong(processedCell().getText()) >= processedBefore + ids.size());

        new Select(browser.findElement(By.id("lookup-consumer"))).selectByVisibleText(LedgerClient.CONSUMER);
        browser.findElement(By.id("lookup-id")).sendKeys(ids.get(0));
        browser.findElement(By.cssSelector("#lookup button")).click();
        wait.until(ExpectedConditions.attributeToBeNotEmpty(browser.findElement(By.id("lookup-result")), "data-state"));
        assertTrue(
                List.of("UNCONFIRMED", "ACKNOWLEDGED")
                        .contains(browser.findElement(By.id("lookup-result")).getAttribute("data-state")),
                browser.findElement(By.id("lookup-result")).getText());
        assertTrue(browser.findElement(By.id("lookup-result")).getText().contains(ids.get(0)));

        String markup = "<img src=x onerror=\"document.body.dataset.injected='yes'\">";
        String parkedId = "browser-" + UUID.randomUUID() + markup;
        long failUntil = System.currentTimeMillis() + 3_000;
        ledger.sendCredit(Json.createObjectBuilder()
                .add("messageId", parkedId)
                .add("account", account)
                .add("amount", 10)
                .add("faults", Json.createObjectBuilder().add("failUntilEpochMilli", failUntil))
                .build());
        String shownId = wait.until(page -> Optional.ofNullable(rowOf(PARKED, parkedId))
                .map(row -> row.findElements(By.tagName("td")).get(2).getText())
                .orElse(null));
        assertEquals(parkedId, shownId, "the ID is shown as text");
        assertTrue(
                browser.findElements(By.cssSelector("#parked img")).isEmpty(), "no markup from a message is rendered");
        assertEquals(null, browser.findElement(By.tagName("body")).getAttribute("data-injected"));
        saveScreenshot(); // figures, a found ID, a parked message with its actions

        Await.pause(Duration.ofMillis(Math.max(0, failUntil - System.currentTimeMillis() + 500)));
        clickAndConfirm(PARKED, parkedId, "button.replay");
        Await.untilEquals("the replayed credit is booked", 16L, WAIT, () -> ledger.balance(account));
        wait.until(page -> rowOf(PARKED, parkedId) == null);
    }

    @Test
    void anAdminSeesAnOutgoingMessageThatCannotBeSentWithItsReasonAndDiscardsIt() {
        String messageId = ledger.sendThroughOutbox("NoSuchQueue-" + UUID.randomUUID(), "<b>for nobody</b>");
        String base = Phase.baseUrl();
        browser.get(base.replace("://", "://admin:admin@") + "/exactly-once/");

        String reason = wait.until(page -> Optional.ofNullable(rowOf(OUTBOX, messageId))
                .map(row -> row.findElements(By.tagName("td")).get(5).getText())
                .filter(text -> !text.isBlank())
                .orElse(null));
        assertTrue(reason.contains("NoSuchQueue"), reason);
        assertTrue(browser.findElement(By.id("outbox-summary")).getText().contains("failing"));
        clickAndConfirm(OUTBOX, messageId, "button.discard");
        wait.until(page -> rowOf(OUTBOX, messageId) == null);
        assertTrue(
                ledger.outbox().getJsonArray("failingMessages").stream()
                        .noneMatch(unsent ->
                                unsent.asJsonObject().getString("messageId").equals(messageId)),
                "discarded");
    }

    private WebElement processedCell() {
        return wait.until(page -> page
                .findElements(By.cssSelector(
                        "#consumers tr[data-consumer='org.exactlyonce.sample.ledger.LedgerConsumer'] td.processed"))
                .stream()
                .findFirst()
                .orElse(null));
    }

    /**
     * Clicks the button in the message's row as drawn now (a redraw replaces the row, so it is found
     * again on each try) and confirms the dialog the click opens.
     */
    private void clickAndConfirm(String table, String messageId, String button) {
        wait.until(page -> {
            WebElement row = rowOf(table, messageId);
            if (row == null) {
                return false;
            }
            row.findElement(By.cssSelector(button)).click();
            return true;
        });
        wait.until(ExpectedConditions.alertIsPresent()).accept();
    }

    /** A message's row in a table, found by the ID the page stored as data (never as markup). */
    private WebElement rowOf(String table, String messageId) {
        return browser.findElements(By.cssSelector(table + " tbody tr")).stream()
                .filter(row -> messageId.equals(row.getAttribute("data-message-id")))
                .findFirst()
                .orElse(null);
    }

    private void saveScreenshot() throws IOException {
        Path screenshot =
                ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE).toPath();
        Path kept = Path.of("target", "console.png");
        Files.createDirectories(kept.getParent());
        Files.copy(screenshot, kept, StandardCopyOption.REPLACE_EXISTING);
    }
}
