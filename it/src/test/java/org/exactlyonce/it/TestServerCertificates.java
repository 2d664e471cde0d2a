package org.exactlyonce.it;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * TLS towards the test servers on this machine: each made its own self-signed certificate at first
 * start (Liberty's default keystore, WildFly's application keystore), which no trust store knows, so
 * the tests take whatever certificate a server on this machine shows.
 */
final class TestServerCertificates {

    private TestServerCertificates() {}

    /** A TLS context that trusts whatever certificate a server shows. */
    static SSLContext trustingThem() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new TrustingAll()}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS in this JDK", e);
        }
    }

    /**
     * Extended, not a plain X509TrustManager: the JDK wraps a plain one in checks of its own, the host
     * name among them.
     */
    private static final class TrustingAll extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
