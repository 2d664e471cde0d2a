package org.exactlyonce.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The addresses this machine's listening TCP sockets are bound to, as Linux's socket tables say
 * ({@code /proc/net/tcp} and {@code /proc/net/tcp6}): what a server offers to other machines, read
 * without needing another machine or another interface to try from.
 */
final class ListeningSockets {

    private static final String LISTEN = "0A";

    private ListeningSockets() {}

    /** The local addresses of the sockets listening on {@code port}; a wildcard shows as 0.0.0.0 or ::. */
    static List<InetAddress> boundTo(int port) throws IOException {
        if (!Files.exists(Path.of("/proc/net/tcp"))) {
            throw new IllegalStateException("this machine has no /proc/net/tcp: the tests run on Linux");
        }
        List<InetAddress> addresses = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path path = Path.of(table);
            if (!Files.exists(path)) {
                continue; // a kernel without IPv6
            }
            List<String> lines = Files.readAllLines(path);
            for (String line : lines.subList(1, lines.size())) {
                // sl local_address rem_address st ...: the address and port in hex, st 0A = LISTEN
                String[] fields = line.trim().split("\\s+");
                String[] local = fields[1].split(":");
                if (fields[3].equals(LISTEN) && Integer.parseInt(local[1], 16) == port) {
                    addresses.add(address(local[0]));
                }
            }
        }
        return addresses;
    }

    /** The kernel writes an address as 32-bit words in the machine's byte order. */
    private static InetAddress address(String hex) throws UnknownHostException {
        byte[] words = HexFormat.of().parseHex(hex);
        if (ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN) {
            return InetAddress.getByAddress(words);
        }
        byte[] address = new byte[words.length];
        for (int word = 0; word < words.length; word += 4) {
            for (int i = 0; i < 4; i++) {
                address[word + i] = words[word + 3 - i];
            }
        }
        return InetAddress.getByAddress(address);
    }
}
