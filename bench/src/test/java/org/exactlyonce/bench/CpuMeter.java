package org.exactlyonce.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where the machine's CPU time went during a run, read from Linux's {@code /proc}: how busy all cores
 * were, and each part's share (the broker, each application server, the database, the benchmark).
 * Shares are of all cores' time, so that they add up to the machine's busy share; both come from the
 * same clock ticks, whatever their length.
 */
final class CpuMeter {

    /** A part of the setup: the processes of a given ID or whose command lines contain a text. */
    record Part(String name, long pid, String commandContains) {

        static Part commandContaining(String name, String text) {
            return new Part(name, -1, text);
        }

        static Part process(String name, long pid) {
            return new Part(name, pid, null);
        }

        boolean matches(long processId, String command) {
            return pid == processId || (commandContains != null && command.contains(commandContains));
        }
    }

    private final List<Part> parts;

    CpuMeter(List<Part> parts) {
        this.parts = parts;
    }

    /** The counters at one moment: all cores' ticks, busy and in all, each process's own, and when. */
    record Reading(
            long busy, long total, Map<Long, Long> ticksByProcess, Map<Long, String> partByProcess, long nanoTime) {}

    Reading read() throws IOException {
        long[] machine = machineTicks();
        Map<Long, Long> ticks = new HashMap<>();
        Map<Long, String> part = new HashMap<>();
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : processes
                    .filter(p -> p.getFileName().toString().matches("\\d+"))
                    .toList()) {
                readProcess(process, ticks, part);
            }
        }
        return new Reading(machine[0], machine[1], ticks, part, System.nanoTime());
    }

    /**
     * The busy share of all cores between two readings, each part's share of them, in the order of the
     * parts given, and the share of all other processes ({@code other}); a process that started in
     * between counts from zero.
     */
    Map<String, Double> shares(Reading before, Reading after) {
        double total = Math.max(1, after.total() - before.total());
        Map<String, Double> shares = new LinkedHashMap<>();
        shares.put("busy", (after.busy() - before.busy()) / total);
        parts.forEach(part -> shares.put(part.name(), 0.0));
        after.ticksByProcess().forEach((pid, ticks) -> {
            String part = after.partByProcess().get(pid);
            if (part != null) {
                long spent = ticks - before.ticksByProcess().getOrDefault(pid, 0L);
                shares.merge(part, Math.max(0, spent) / total, Double::sum);
            }
        });
        double parted =
                parts.stream().mapToDouble(part -> shares.get(part.name())).sum();
        shares.put("other", Math.max(0, shares.get("busy") - parted));
        return shares;
    }

    /**
     * Each part's CPU time between two readings, in milliseconds per unit of work (a message): its share
     * of all cores' time, times the cores and the time between the readings.
     */
    Map<String, Double> msPerUnit(Reading before, Reading after, int units) {
        double allCoresMs = Runtime.getRuntime().availableProcessors() * (after.nanoTime() - before.nanoTime()) / 1e6;
        Map<String, Double> perUnit = new LinkedHashMap<>();
        shares(before, after).forEach((part, share) -> perUnit.put(part, share * allCoresMs / units));
        perUnit.remove("busy");
        return perUnit;
    }

    /** {@code /proc/stat}'s first line: busy ticks (all but idle and I/O wait) and all ticks, of all cores. */
    private static long[] machineTicks() throws IOException {
        String[] fields =
                Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < fields.length && i <= 8; i++) { // user … steal; guest time is already in user
            total += Long.parseLong(fields[i]);
        }
        long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
        return new long[] {total - idle, total};
    }

    private void readProcess(Path process, Map<Long, Long> ticks, Map<Long, String> part) {
        try {
            String command = new String(Files.readAllBytes(process.resolve("cmdline")), StandardCharsets.UTF_8)
                    .replace('\0', ' ');
            long pid = Long.parseLong(process.getFileName().toString());
            String name = partOf(pid, command);
            if (name == null) {
                return;
            }
            String stat = Files.readString(process.resolve("stat"));
            // after the command name in parentheses, which may hold spaces: state is field 3, utime 14, stime 15
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            ticks.put(pid, Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
            part.put(pid, name);
        } catch (IOException | RuntimeException gone) {
            // the process ended between the listing and the read: it counts as not there
        }
    }

    private String partOf(long pid, String command) {
        for (Part part : parts) {
            if (part.matches(pid, command)) {
                return part.name();
            }
        }
        return null;
    }
}
