#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a filter stage answers SIGINT and SIGTERM: finish with its input, or stop now.
///
/// A terminal sends Ctrl-C's SIGINT to every process of a pipeline. The capture at its head
/// ends its session cleanly and closes the stream, so a filter that died on the same signal
/// would lose what it holds. For a filter the first SIGINT therefore means "finish when your
/// input ends". A second SIGINT, or SIGTERM, stops it at once: its next read throws
/// `StreamError.stopped`, and the stage drains and marks its output interrupted as for a broken
/// input. The handler wakes a blocked read through a pipe, so the read may run on any thread.
public enum FilterSignals {
    nonisolated(unsafe) private static var interrupts: sig_atomic_t = 0
    nonisolated(unsafe) private static var stopSignal: sig_atomic_t = 0
    nonisolated(unsafe) private static var wakeRead: Int32 = -1
    nonisolated(unsafe) private static var wakeWrite: Int32 = -1

    /// Installs the handlers once, before the stage reads. A signal the parent set to be
    /// ignored (a background job of a non-interactive shell, nohup) stays ignored.
    public static func install() {
        guard wakeRead < 0 else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        for signal in [SIGINT, SIGTERM] {
            var old = sigaction()
            sigaction(signal, nil, &old)
            if unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                if signal == SIGINT { FilterSignals.interrupts += 1 }
                guard signal == SIGTERM || FilterSignals.interrupts >= 2 else { return }
                FilterSignals.stopSignal = signal
                var byte: UInt8 = 1
                _ = write(FilterSignals.wakeWrite, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        // Masks are inherited: a parent may have left these blocked, and a stop must get through.
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGINT)
        sigaddset(&stops, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
    }

    /// The signal that asked for an immediate stop, if one did.
    public static var stop: Int32? { stopSignal == 0 ? nil : stopSignal }

    /// Waits until `fd` can be read or a stop is asked for; returns at once when not installed.
    static func waitReadable(_ fd: Int32) throws {
        guard wakeRead >= 0 else { return }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            if let stop { throw StreamError.stopped(signal: stop, offset: 0) }
            let ready = poll(&fds, 2, -1)
            if ready > 0, fds[0].revents != 0 { return }
            if ready < 0, errno != EINTR { throw StreamError.io(operation: "poll", errno: errno) }
        }
    }

    /// Ends the process by `signal`'s default action, so the shell sees how it ended.
    public static func exit(by signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        Glibc.exit(128 + signal)
    }
}
