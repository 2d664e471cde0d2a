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
        String base = System.getProperty("it.base-url", "https://localhost:19443");
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
        String shownId = wait.until(page -> Optional.ofNullable(parkedRow(parkedId))
                .map(row -> row.findElements(By.tagName("td")).get(2).getText())
                .orElse(null));
        assertEquals(parkedId, shownId, "the ID is shown as text");
        assertTrue(
                browser.findElements(By.cssSelector("#parked img")).isEmpty(), "no markup from a message is rendered");
        assertEquals(null, browser.findElement(By.tagName("body")).getAttribute("data-injected"));
        saveScreenshot(); // figures, a found ID, a parked message with its actions

        Await.pause(Duration.ofMillis(Math.max(0, failUntil - System.currentTimeMillis() + 500)));
        wait.until(
                page -> { // the row as drawn now: a redraw replaces it
                    WebElement row = parkedRow(parkedId);
                    if (row == null) {
                        return false;
                    }
                    row.findElement(By.cssSelector("button.replay")).click();
                    return true;
                });
        wait.until(ExpectedConditions.alertIsPresent()).accept();
        Await.untilEquals("the replayed credit is booked", 16L, WAIT, () -> ledger.balance(account));
        wait.until(page -> parkedRow(parkedId) == null);
    }

    @Test
    void anAdminSeesAnOutgoingMessageThatCannotBeSentWithItsReasonAndDiscardsIt() {
        String messageId = ledger.sendThroughOutbox("NoSuchQueue-" + UUID.randomUUID(), "<b>for nobody</b>");
        String base = System.getProperty("it.base-url", "https://localhost:19443");
        browser.get(base.replace("://", "://admin:admin@") + "/exactly-once/");

        String reason = wait.until(page -> Optional.ofNullable(outboxRow(messageId))
                .map(row -> row.findElements(By.tagName("td")).get(5).getText())
                .filter(text -> !text.isBlank())
                .orElse(null));
        assertTrue(reason.contains("NoSuchQueue"), reason);
        assertTrue(browser.findElement(By.id("outbox-summary")).getText().contains("failing"));
        wait.until(page -> {
            WebElement row = outboxRow(messageId);
            if (row == null) {
                return false;
            }
            row.findElement(By.cssSelector("button.discard")).click();
            return true;
        });
        wait.until(ExpectedConditions.alertIsPresent()).accept();
        wait.until(page -> outboxRow(messageId) == null);
        assertTrue(
                ledger.outbox().getJsonArray("failingMessages").stream()
                        .noneMatch(unsent ->
                                unsent.asJsonObject().getString("messageId").equals(messageId)),
                "discarded");
    }

    private WebElement outboxRow(String messageId) {
        return browser.findElements(By.cssSelector("#outbox tbody tr")).stream()
                .filter(row -> messageId.equals(row.getAttribute("data-message-id")))
                .findFirst()
                .orElse(null);
    }

    private WebElement processedCell() {
        return wait.until(page -> page
                .findElements(By.cssSelector(
                        "#consumers tr[data-consumer='exactly-once-sample/ledger/LedgerConsumer'] td.processed"))
                .stream()
                .findFirst()
                .orElse(null));
    }

    /** The parked message's row, found by the ID the page stored as data (never as markup). */
    private WebElement parkedRow(String messageId) {
        return browser.findElements(By.cssSelector("#parked tbody tr")).stream()
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
