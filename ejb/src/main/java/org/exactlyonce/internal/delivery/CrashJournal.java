package org.exactlyonce.internal.delivery;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * The deliveries under way on this server, in a file that outlives the process: each delivery writes
 * its consumer and message ID into a slot of a memory-mapped file before it processes, and clears the
 * slot when it ends. What a {@code kill -9}, an {@code OutOfMemoryError} that halts the JVM or a native
 * crash leaves there was in flight when the server went down, which the next start reads. The pages
 * of a memory-mapped file belong to the operating system, so a dying process loses none of its
 * writes: no {@code fsync} is needed for a process crash, and a delivery pays a memory write. The
 * file sits in the server's own directory, beside an embedded broker's journal: a server whose disk
 * is fresh after a restart has lost that broker's messages too, and with them any message to count.
 */
public final class CrashJournal {

    private static final Logger LOG = Logger.getLogger(CrashJournal.class.getName());

    /** What a slot holds: the length of the entry (0 for a free slot), the consumer's, then the ID's. */
    private static final int SLOT_BYTES = 2048;

    private static final int HEADER_BYTES = 2 * Integer.BYTES;

    private final Path file;
    private final MappedByteBuffer slots;
    private final ConcurrentLinkedQueue<Integer> free = new ConcurrentLinkedQueue<>();
    private final Map<String, Set<String>> interrupted;
    private final AtomicBoolean toldFull = new AtomicBoolean();

    private CrashJournal(Path file, MappedByteBuffer slots, Map<String, Set<String>> interrupted, int count) {
        this.file = file;
        this.slots = slots;
        this.interrupted = interrupted;
        for (int slot = 0; slot < count; slot++) {
            free.add(slot);
        }
    }

    /**
     * Opens the journal, reading what the last run left in it, and empties it for this run.
     *
     * @param count how many deliveries may be journaled at once: a server's delivery threads, and the
     *     messages of its batches
     */
    public static CrashJournal open(Path file, int count) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Map<String, Set<String>> interrupted = new HashMap<>();
        if (Files.exists(file)) {
            interrupted = leftIn(ByteBuffer.wrap(Files.readAllBytes(file)));
        }
        long size;
        MappedByteBuffer slots;
        try (FileChannel channel =
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            // never shrunk: a mapping an earlier deployment of the application left in this JVM would
            // fault on a page cut from under it
            size = Math.max((long) count * SLOT_BYTES, channel.size() / SLOT_BYTES * SLOT_BYTES);
            slots = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        }
        for (int offset = 0; offset < size; offset += Long.BYTES) {
            slots.putLong(offset, 0L);
        }
        interrupted.replaceAll((consumer, ids) -> Set.copyOf(ids));
        return new CrashJournal(file, slots, Map.copyOf(interrupted), (int) (size / SLOT_BYTES));
    }

    /** The entries a run left in its file: the deliveries it was making when it went down, by consumer. */
    private static Map<String, Set<String>> leftIn(ByteBuffer content) {
        Map<String, Set<String>> left = new HashMap<>();
        for (int offset = 0; offset + SLOT_BYTES <= content.capacity(); offset += SLOT_BYTES) {
            int consumerLength = content.getInt(offset);
            int idLength = content.getInt(offset + Integer.BYTES);
            if (consumerLength <= 0
                    || idLength <= 0
                    || HEADER_BYTES + consumerLength + idLength > SLOT_BYTES) { // free, or torn by the crash
                continue;
            }
            String consumer = text(content, offset + HEADER_BYTES, consumerLength);
            String messageId = text(content, offset + HEADER_BYTES + consumerLength, idLength);
            left.computeIfAbsent(consumer, c -> new HashSet<>()).add(messageId);
        }
        return left;
    }

    private static String text(ByteBuffer content, int offset, int length) {
        byte[] bytes = new byte[length];
        content.get(offset, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The file, as a log names it. */
    public Path file() {
        return file;
    }

    /** The IDs of the consumer's deliveries that the last run of this server was making when it crashed. */
    public Set<String> interruptedDeliveries(String consumer) {
        return interrupted.getOrDefault(consumer, Set.of());
    }

    /** The deliveries the last run was making when it crashed: message IDs by consumer; empty after a clean stop. */
    public Map<String, Set<String>> interrupted() {
        return interrupted;
    }

    /**
     * Journals a delivery until the returned entry is closed. When every slot is taken the delivery
     * goes on unjournaled, and the first time this happens is logged: a crash during it is not counted.
     */
    public Entry begin(String consumer, String messageId) {
        byte[] consumerBytes = consumer.getBytes(StandardCharsets.UTF_8);
        byte[] idBytes = messageId.getBytes(StandardCharsets.UTF_8);
        Integer slot = free.poll();
        if (slot == null || HEADER_BYTES + consumerBytes.length + idBytes.length > SLOT_BYTES) {
            if (slot != null) {
                free.add(slot);
            } else if (toldFull.compareAndSet(false, true)) {
                LOG.warning(() -> "exactly-once: every slot of the crash journal " + file + " is taken; deliveries"
                        + " beyond them are not journaled, and a crash during one of them is not counted. Raise"
                        + " exactlyonce.crash-guard.journal-slots above the server's delivery threads plus the"
                        + " messages of its batches");
            }
            return Entry.NONE;
        }
        int offset = slot * SLOT_BYTES;
        ByteBuffer view = slots.duplicate();
        view.put(offset + HEADER_BYTES, consumerBytes);
        view.put(offset + HEADER_BYTES + consumerBytes.length, idBytes);
        view.putInt(offset + Integer.BYTES, idBytes.length);
        VarHandle.releaseFence(); // the lengths that make the slot count come after what they describe
        view.putInt(offset, consumerBytes.length);
        return () -> {
            slots.duplicate().putInt(offset, 0);
            free.add(slot);
        };
    }

    /** A journaled delivery: closed when it ends, however it ends. */
    @FunctionalInterface
    public interface Entry extends AutoCloseable {
        @Override
        void close();

        Entry NONE = () -> {};
    }
}
