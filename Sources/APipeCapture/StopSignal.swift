#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM ask a capture to stop after the frame in hand instead of killing it.
public enum StopSignal {
    nonisolated(unsafe) private static var received: sig_atomic_t = 0

    /// Installs the handlers without SA_RESTART, so a blocking read returns early with EINTR.
    public static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in StopSignal.received = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
    }

    /// Whether a stop was asked for.
    public static var requested: Bool { received != 0 }
}
