import APipeCLI
import APipeStream
import APipeTranscribe
import ArgumentParser
import Foundation

/// `atranscribe`: turns each segment's audio into a transcription event.
struct ATranscribe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atranscribe",
        abstract: "Transcribe each segment of an apipe stream; pass audio and other events through.",
        discussion: """
            A session without segment events is cut into fixed windows (--window). Each segment gets a \
            'transcription' event after its end, or 'transcription.failed' when it cannot be transcribed. \
            The API key is read from OPENAI_API_KEY or --api-key-file, never from the command line.
            """,
        version: APipeVersion.current)

    @Option(name: .long, help: ArgumentHelp("Engine to use (see --list-engines).", valueName: "name"))
    var engine: String?

    @Option(name: .long, help: ArgumentHelp("Engine to try when the previous one fails for good or is offline (repeatable).", valueName: "name"))
    var fallback: [String] = []

    @Flag(name: .long, help: "List the engines, and why any cannot run, then exit.")
    var listEngines = false

    @Option(name: .long, help: ArgumentHelp("Base URL of an OpenAI-compatible server (default https://api.openai.com).", valueName: "url"))
    var url: String?

    @Option(name: .long, help: ArgumentHelp("Model name to ask the engine for (openai default whisper-1).", valueName: "name"))
    var model: String?

    @Option(name: .long, help: ArgumentHelp("Language of the speech (ISO 639-1, e.g. en); whisper detects it when absent.", valueName: "code"))
    var language: String?

    @Option(name: .long, help: ArgumentHelp("Text to prime the recogniser with (names, spelling).", valueName: "text"))
    var prompt: String?

    @Option(name: .long, help: ArgumentHelp("Read the API key from the first line of this file.", valueName: "file"))
    var apiKeyFile: String?

    @Option(name: .long, help: ArgumentHelp("Command of the 'command' engine; {wav} is replaced by a WAV file's path, else the WAV goes to its stdin.", valueName: "command"))
    var exec: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Segments transcribed at once (default 3 for network engines, the core count for local ones).", valueName: "n"))
    var jobs: Int?

    @Option(name: .long, help: ArgumentHelp("Retries of a retryable failure per segment and engine.", valueName: "n"))
    var retries = 5

    @Option(name: .long, help: ArgumentHelp("First retry delay in seconds; it doubles each retry, with jitter.", valueName: "seconds"))
    var retryDelay = 1.0

    @Option(name: .long, help: ArgumentHelp("Time limit of one request (connection to the answer's last byte) or command run, in seconds.", valueName: "seconds"))
    var timeout = 120.0

    @Option(name: .long, help: ArgumentHelp("Split segments longer than this before transcribing them (engines also split at their own limits).", valueName: "seconds"))
    var maxSeconds: Double?

    @Option(name: .long, help: ArgumentHelp("Window length for sessions without segment events.", valueName: "seconds"))
    var window = 30.0

    @Flag(name: .customLong("defer"), help: "Mark segments whose service is unreachable as pending instead of failed.")
    var deferNetworkFailures = false

    @Option(name: .long, help: ArgumentHelp("Progress on stderr: auto (a line on a terminal), none, line, json.", valueName: "style"))
    var progress: String = "auto"

    @Flag(name: .long, help: "Write only transcription events, as JSON lines, to stdout (no binary stream).")
    var jsonl = false

    func validate() throws {
        if let jobs, jobs < 1 || jobs > 1024 { throw ValidationError("--jobs must be between 1 and 1024") }
        guard retries >= 0, retries <= 100 else { throw ValidationError("--retries must be between 0 and 100") }
        guard retryDelay >= 0, retryDelay.isFinite else { throw ValidationError("--retry-delay must be 0 or more seconds") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be more than 0 seconds") }
        guard window >= 1, window.isFinite else { throw ValidationError("--window must be at least 1 second") }
        if let maxSeconds, !(maxSeconds >= 1 && maxSeconds.isFinite) { throw ValidationError("--max-seconds must be at least 1 second") }
        guard ProgressStyle(rawValue: progress) != nil else {
            throw ValidationError("--progress must be one of \(ProgressStyle.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        var settings = TranscribeSettings()
        settings.engine = engine
        settings.fallbacks = fallback
        settings.options.url = url
        settings.options.model = model
        settings.options.language = language
        settings.options.prompt = prompt
        settings.options.exec = exec
        settings.options.timeout = timeout
        settings.options.maxSeconds = maxSeconds
        settings.options.jobs = jobs
        settings.options.environment = ProcessInfo.processInfo.environment
        do {
            settings.options.apiKey = try EngineOptions.apiKey(file: apiKeyFile, environment: settings.options.environment)
        } catch {
            throw TranscribeFailure(error.description, exitStatus: .noInput)
        }
        if listEngines {
            for line in EngineCatalog.standard.listing(settings.options) { print(line) }
            return
        }
        settings.jobs = jobs
        settings.retry = RetryPolicy(retries: retries, baseDelay: retryDelay)
        settings.deferNetworkFailures = deferNetworkFailures
        settings.windowSeconds = window
        settings.progress = ProgressStyle(rawValue: progress) ?? .auto
        settings.jsonLines = jsonl
        try await TranscribeTool.run(settings)
    }
}
