import APipeStream
import APipeWhisper
import Foundation

/// The native Whisper engine: CTranslate2 model weights run in-process, no Python, no server.
public struct WhisperEngine: TranscriptionEngine {
    public let name = "whisper"
    public let method = "local-whisper"
    public let provider = "apipe-whisper"
    public let model: String?
    public let preferredRate = 16000
    public let isNetwork = false
    private let whisper: WhisperModel
    private let options: WhisperOptions

    public init(directory: String, language: String?, prompt: String?, threads: Int) throws(EngineError) {
        do {
            whisper = try WhisperModel.load(directory: directory)
        } catch {
            throw .unavailable("cannot load the Whisper model: \(error)")
        }
        if let language {
            do {
                try whisper.checkLanguage(language)
            } catch {
                throw .invalidOption("--language: \(error)")
            }
        }
        model = URL(fileURLWithPath: directory).lastPathComponent
        options = WhisperOptions(language: language, prompt: prompt, threads: threads)
    }

    public func transcribe(_ audio: SegmentAudio) async throws(EngineError) -> EngineResult {
        let input = audio.resampled(to: preferredRate)
        let result: WhisperResult
        do {
            result = try whisper.transcribe(input.samples, options: options)
        } catch {
            throw .badAudio("\(error)")
        }
        return EngineResult(
            text: result.text, language: result.language, confidence: Double(result.confidence),
            phrases: result.phrases.map {
                TranscriptPhrase(start: $0.start, end: $0.end, text: $0.text, confidence: Double(exp($0.avgLogProb)))
            })
    }

    /// Where the model is: `--model DIR`, else `APIPE_MODEL`, else the model installed beside the
    /// tools (`PREFIX/share/apipe/models/tiny.en`), else the data directory's.
    static func modelDirectory(_ options: EngineOptions) -> String? {
        var candidates: [String] = []
        if let given = options.model, given.contains("/") || FileManager.default.fileExists(atPath: given) { candidates.append(given) }
        if let env = options.environment["APIPE_MODEL"], !env.isEmpty { candidates.append(env) }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent("../share/apipe/models/tiny.en").standardized.path)
        let data = options.environment["XDG_DATA_HOME"].map { $0 + "/apipe" } ?? (options.environment["HOME"] ?? "") + "/.local/share/apipe"
        candidates.append(data + "/models/tiny.en")
        if options.model != nil || options.environment["APIPE_MODEL"] != nil {
            return candidates.first
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/model.bin") }
    }
}

extension EngineDescriptor {
    /// The embedded Whisper engine (the default when its model is installed).
    public static let whisper = EngineDescriptor(
        name: "whisper", summary: "native Whisper in-process (CTranslate2 model directory: --model DIR or APIPE_MODEL)",
        isNetwork: false,
        unavailableReason: { options in
            guard let directory = WhisperEngine.modelDirectory(options) else {
                return "no model found (run `make model`, or give --model DIR / APIPE_MODEL)"
            }
            return FileManager.default.fileExists(atPath: directory + "/model.bin") ? nil : "no model.bin in \(directory)"
        },
        make: { options throws(EngineError) in
            guard let directory = WhisperEngine.modelDirectory(options) else { throw .unavailable("no Whisper model found") }
            let cores = ProcessInfo.processInfo.activeProcessorCount
            return try WhisperEngine(
                directory: directory, language: options.language, prompt: options.prompt,
                threads: max(1, cores / max(1, options.jobs ?? cores)))
        })
}
