package org.exactlyonce.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificate a Liberty server made for itself at its first start ({@code resources/security/key.p12},
 * self-signed for localhost, its password the {@code keystore_password} that {@code server create} wrote
 * to {@code server.env}), as the one certificate a client trusts.
 */
final class ServerCertificate {

    private ServerCertificate() {}

    /**
     * A TLS context that trusts the server's certificate only.
     *
     * @throws IllegalStateException while the server has not made its certificate yet
     */
    static SSLContext trustedIn(Path serverDir) {
        Path keystore = serverDir.resolve("resources/security/key.p12");
        try {
            return trusted(keystore, "PKCS12", keystorePassword(serverDir.resolve("server.env")));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the server's certificate in " + keystore + ": " + e, e);
        }
    }

    /**
     * A TLS context that trusts the certificates of the key store only.
     *
     * @throws IllegalStateException when the key store cannot be read
     */
    static SSLContext trusted(Path keystore, String type, char[] password) {
        try (InputStream in = Files.newInputStream(keystore)) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, password);
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the server's certificate in " + keystore + ": " + e, e);
        }
    }

    private static char[] keystorePassword(Path serverEnv) throws IOException {
        return Files.readAllLines(serverEnv).stream()
                .filter(line -> line.startsWith("keystore_password="))
                .map(line -> line.substring("keystore_password=".length()).trim())
                .findFirst()
                .orElseThrow(() -> new IOException("no keystore_password in " + serverEnv))
                .toCharArray();
    }
}
