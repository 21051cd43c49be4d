import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a shell command in its own process group with input, output capture and a deadline.
///
/// Pipes are made close-on-exec, under one lock with the spawn, so that commands started at
/// the same time do not inherit each other's ends (a stray write end would keep another
/// command's input open forever). On a timeout or cancellation the whole process group is
/// killed, so a shell's children go too.
enum Subprocess {
    struct Outcome: Sendable {
        /// Exit status, or nil when killed by a signal.
        var status: Int32?
        var signal: Int32?
        var output: [UInt8]
        var errorOutput: [UInt8]
        /// Whether standard output passed `maxOutput` bytes (the rest was read and dropped).
        var outputOverflowed: Bool
    }

    enum Failure: Error, Sendable {
        case timedOut
        case cannotStart(String)
    }

    /// Held from making pipes until the child has its copies, so no other spawn sees them.
    private static let spawnLock = NSLock()

    static func run(shell command: String, input: [UInt8]?, timeout: Double, maxOutput: Int) async throws(Failure) -> Outcome {
        let (child, stdinFD, stdoutFD, stderrFD) = try spawn(command)
        let killed = KillSwitch(pid: child)
        let outcome = await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    try? await Task.sleep(for: .seconds(timeout))
                    if !Task.isCancelled { killed.kill() }
                }
                async let written: Void = blocking { writeAll(stdinFD, input ?? []) }
                async let output = blocking { readAll(stdoutFD, limit: maxOutput) }
                async let errors = blocking { readAll(stderrFD, limit: 8192) }
                async let status = blocking { waitFor(child) }
                let (out, err, code) = await (output, errors, status)
                await written
                killed.reap()
                group.cancelAll()
                return Outcome(
                    status: code.exited ? code.value : nil, signal: code.exited ? nil : code.value,
                    output: out.bytes, errorOutput: err.bytes, outputOverflowed: out.overflowed)
            }
        } onCancel: {
            killed.kill()
        }
        if killed.didKill { throw .timedOut }
        return outcome
    }

    /// Starts `/bin/sh -c command` in a new process group; returns its id and the parent's pipe ends.
    private static func spawn(_ command: String) throws(Failure) -> (pid_t, stdin: Int32, stdout: Int32, stderr: Int32) {
        SystemIO.ignoreBrokenPipeSignal()
        spawnLock.lock()
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            for fd in inPipe + outPipe + errPipe where fd >= 0 { close(fd) }
            spawnLock.unlock()
            throw .cannotStart("cannot create pipes: \(String(cString: strerror(errno)))")
        }
        for fd in inPipe + outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        // The child starts as a fresh program would: nothing blocked (the spawning thread may block
        // the stop signals to wait for them), and the signals this process ignores or handles
        // back at their defaults, so `kill` and Ctrl-C reach it.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { for arg in argv { free(arg) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        spawnLock.unlock()
        guard spawned == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            close(errPipe[0])
            throw .cannotStart("cannot start /bin/sh: \(String(cString: strerror(spawned)))")
        }
        return (pid, inPipe[1], outPipe[0], errPipe[0])
    }

    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                offset += n
            }
        }
        close(fd)
    }

    private static func readAll(_ fd: Int32, limit: Int) -> (bytes: [UInt8], overflowed: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var overflowed = false
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            if bytes.count + n > limit {
                overflowed = true
                bytes.append(contentsOf: chunk[0..<max(0, limit - bytes.count)])
            } else {
                bytes.append(contentsOf: chunk[0..<n])
            }
        }
        close(fd)
        return (bytes, overflowed)
    }

    private static func waitFor(_ pid: pid_t) -> (exited: Bool, value: Int32) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return (true, -1) }
        }
        let signal = status & 0x7F
        return signal == 0 ? (true, (status >> 8) & 0xFF) : (false, signal)
    }
}

/// Kills a child's process group at most once, and never after the child was reaped (the id
/// could then belong to someone else).
private final class KillSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private let pid: pid_t
    private var reaped = false
    private(set) var didKill = false

    init(pid: pid_t) { self.pid = pid }

    func kill() {
        lock.lock()
        defer { lock.unlock() }
        guard !reaped, !didKill else { return }
        didKill = true
        Glibc.kill(-pid, SIGKILL)
    }

    func reap() {
        lock.lock()
        reaped = true
        lock.unlock()
    }
}

import APipeStream
