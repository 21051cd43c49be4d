import Foundation

/// Runs the built tools in real pipes through bash, from a scratch directory.
///
/// `APIPE_BIN` names the directory of the built executables (`make test` sets it); otherwise
/// `.build/release` under the package root. Each test gets its own scratch directory.
final class Shell {
    struct Result {
        let stdout: Data
        let stderr: String
        /// Exit status of every command in the pipeline, in order (bash's PIPESTATUS).
        let statuses: [Int32]

        var text: String { String(decoding: stdout, as: UTF8.self) }
        var lines: [String] { text.split(separator: "\n").map(String.init) }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binDirectory = ProcessInfo.processInfo.environment["APIPE_BIN"] ?? packageRoot.appendingPathComponent(".build/release").path

    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("apipe-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs `script` with the tools on PATH; its stdin is /dev/null unless `input` is given.
    @discardableResult
    func run(_ script: String, input: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        let statusFile = path(".pipestatus-\(UUID().uuidString)")
        process.arguments = ["-c", "\(script)\necho \"${PIPESTATUS[*]}\" > '\(statusFile)'"]
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = Shell.binDirectory + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe()
        let errFile = path(".stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errFile, contents: nil)
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
        defer { try? err.close() }
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            try stdin.fileHandleForWriting.write(contentsOf: input)
            try stdin.fileHandleForWriting.close()
        }
        // stderr goes to a file, so a chatty stderr can never block the child while we read stdout.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = FileManager.default.contents(atPath: errFile) ?? Data()
        let statusText = (try? String(contentsOfFile: statusFile, encoding: .utf8)) ?? "\(process.terminationStatus)"
        let statuses = statusText.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
        return Result(stdout: outData, stderr: String(decoding: errData, as: UTF8.self), statuses: statuses)
    }

    /// An ALSA device `filecap` that reads 3 s of a 440 Hz tone from `in.raw` through ALSA's
    /// `file` plugin (no sound card; unpaced, and past the file's end it repeats stale data);
    /// returns the environment that defines it.
    func alsaFileDevice() throws -> [String: String] {
        try run("sox -n -r 16000 -c 1 -t s16 in.raw synth 3 sine 440")
        let config = """
            pcm.filecap {
                type file
                slave { pcm { type null } }
                file "/dev/null"
                infile "\(path("in.raw"))"
                format "raw"
            }
            """
        try config.write(toFile: path("asoundrc"), atomically: true, encoding: .utf8)
        return ["ALSA_CONFIG_PATH": path("asoundrc")]
    }

    /// Speech from espeak-ng as a WAV file in the scratch directory (22050 Hz mono s16).
    func speech(_ text: String, name: String = "speech.wav", voice: String = "en-us") throws -> String {
        let file = path(name)
        let result = try run("espeak-ng -v \(voice) -w '\(file)' \"\(text)\"")
        guard result.statuses == [0] else { throw ShellError.failed("espeak-ng: \(result.stderr)") }
        return file
    }
}

enum ShellError: Error {
    case failed(String)
}
