import APipeStream
import Foundation

/// What the `atranscribe` command line asks for, parsed.
public struct TranscribeSettings: Sendable {
    /// `--engine`; nil picks the first engine that can run.
    public var engine: String?
    /// `--fallback`, in order.
    public var fallbacks: [String] = []
    public var options = EngineOptions()
    /// `--jobs`; nil means 3 for network engines, the core count for local ones.
    public var jobs: Int?
    public var retry = RetryPolicy()
    /// `--defer`: network failures mark segments pending instead of failed.
    public var deferNetworkFailures = false
    /// `--window`: window length for sessions without segment events.
    public var windowSeconds: Double = 30
    public var progress: ProgressStyle = .auto
    /// `--jsonl`: write only transcription events, as JSON lines.
    public var jsonLines = false

    public init() {}
}

/// A start-up problem of atranscribe, with its exit status.
public struct TranscribeFailure: ToolFailure {
    public let description: String
    public let exitStatus: ExitStatus

    public init(_ description: String, exitStatus: ExitStatus) {
        self.description = description
        self.exitStatus = exitStatus
    }
}

/// Runs atranscribe from standard input to standard output.
public enum TranscribeTool {
    /// The engines, primary first, built from `settings`.
    public static func engines(_ settings: TranscribeSettings, catalog: EngineCatalog) throws -> [any TranscriptionEngine] {
        do {
            let primary: EngineDescriptor
            if let name = settings.engine {
                primary = try catalog.descriptor(named: name)
            } else {
                primary = try catalog.defaultEngine(settings.options)
            }
            var options = settings.options
            options.jobs = settings.jobs ?? (primary.isNetwork ? 3 : ProcessInfo.processInfo.activeProcessorCount)
            var engines = [try catalog.make(primary.name, options: options)]
            for name in settings.fallbacks {
                _ = try catalog.descriptor(named: name)
                // A fallback that cannot run here is reported, not fatal: the primary may do.
                do {
                    engines.append(try catalog.make(name, options: options))
                } catch {
                    Diagnostics.warning("fallback \(error.description)")
                }
            }
            return engines
        } catch {
            var usage = error.description.contains("unknown engine")
            if case .invalidOption = error { usage = true }
            throw TranscribeFailure(error.description, exitStatus: usage ? .usage : .unavailable)
        }
    }

    /// The stage for `settings` and its engines.
    public static func stage(_ settings: TranscribeSettings, engines: [any TranscriptionEngine]) -> TranscribeStage {
        let jobs = settings.jobs ?? (engines.first?.isNetwork == false ? ProcessInfo.processInfo.activeProcessorCount : 3)
        let tracker = ProgressTracker()
        let transcriber = SegmentTranscriber(
            engines: engines, policy: settings.retry, deferNetworkFailures: settings.deferNetworkFailures,
            onRetry: { tracker.retried() })
        var style = settings.progress
        if style == .auto { style = Diagnostics.stderrIsTerminal ? .line : .none }
        return TranscribeStage(transcriber: transcriber, jobs: jobs, windowSeconds: settings.windowSeconds, tracker: tracker, progress: style)
    }

    /// Reads the stream on standard input and writes the result on standard output.
    public static func run(_ settings: TranscribeSettings, catalog: EngineCatalog = .standard) async throws {
        let sink: any TranscriptSink = settings.jsonLines ? JSONLinesSink(fd: 1) : StreamSink(try StreamWriter.standardOutput())
        let engines = try engines(settings, catalog: catalog)
        let stage = stage(settings, engines: engines)
        FilterSignals.install()
        do {
            try await stage.run(reader: StreamReader(fd: 0), sink: sink, warn: { Diagnostics.warning($0) })
        } catch {
            for engine in engines { await engine.shutdown() }
            throw error
        }
        for engine in engines { await engine.shutdown() }
    }
}
