#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM ask a capture to stop after the frame in hand instead of killing it;
/// SIGQUIT ends it at once, the default way.
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
        // A parent may have left these blocked (masks are inherited); a stop must get through.
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGINT)
        sigaddset(&stops, SIGTERM)
        // The Swift runtime's backtracer catches SIGQUIT, prints a backtrace and lets the capture
        // run on; SIGQUIT means "quit now" (and dump core where enabled), so it gets its default
        // action, and is unblocked like the stops.
        signal(SIGQUIT, SIG_DFL)
        sigaddset(&stops, SIGQUIT)
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
    }

    /// Whether a stop was asked for.
    public static var requested: Bool { received != 0 }
}
