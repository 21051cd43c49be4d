/// An engine `--engine` can name: how to tell whether it can run, and how to make it.
public struct EngineDescriptor: Sendable {
    public let name: String
    /// One line for `--list-engines`.
    public let summary: String
    /// Network engines default to 3 jobs, local ones to the core count.
    public let isNetwork: Bool
    /// Nil when the engine can run with these options, else why not.
    public let unavailableReason: @Sendable (EngineOptions) -> String?
    public let make: @Sendable (EngineOptions) throws(EngineError) -> any TranscriptionEngine

    public init(
        name: String, summary: String, isNetwork: Bool, unavailableReason: @escaping @Sendable (EngineOptions) -> String?,
        make: @escaping @Sendable (EngineOptions) throws(EngineError) -> any TranscriptionEngine
    ) {
        self.name = name
        self.summary = summary
        self.isNetwork = isNetwork
        self.unavailableReason = unavailableReason
        self.make = make
    }
}

/// The engines atranscribe knows, in order of preference for the default.
public struct EngineCatalog: Sendable {
    public var engines: [EngineDescriptor]

    public init(engines: [EngineDescriptor]) {
        self.engines = engines
    }

    /// The built-in engines, the default first: `whisper` (local), `openai`, `command`.
    public static let standard = EngineCatalog(engines: [.whisper, .openAI, .command])

    public func descriptor(named name: String) throws(EngineError) -> EngineDescriptor {
        guard let found = engines.first(where: { $0.name == name }) else {
            throw .unavailable("unknown engine '\(name)' (known: \(engines.map(\.name).joined(separator: ", ")); see --list-engines)")
        }
        return found
    }

    /// The first engine that can run with `options`: the default when `--engine` is not given.
    public func defaultEngine(_ options: EngineOptions) throws(EngineError) -> EngineDescriptor {
        if let usable = engines.first(where: { $0.unavailableReason(options) == nil }) { return usable }
        throw .unavailable("no engine can run: " + engines.map { "\($0.name): \($0.unavailableReason(options) ?? "")" }.joined(separator: "; "))
    }

    /// Builds the named engine after checking that it can run.
    public func make(_ name: String, options: EngineOptions) throws(EngineError) -> any TranscriptionEngine {
        let descriptor = try descriptor(named: name)
        if let reason = descriptor.unavailableReason(options) { throw .unavailable("\(name): \(reason)") }
        return try descriptor.make(options)
    }

    /// One line per engine: name, available or why not, and what it is.
    public func listing(_ options: EngineOptions) -> [String] {
        let width = engines.map(\.name.count).max() ?? 0
        return engines.map { engine in
            let name = engine.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let state = engine.unavailableReason(options).map { "unavailable: \($0)" } ?? "available"
            return "\(name)  \(state) - \(engine.summary)"
        }
    }
}

extension EngineDescriptor {
    /// OpenAI-compatible servers.
    public static let openAI = EngineDescriptor(
        name: "openai", summary: "any OpenAI-compatible /v1/audio/transcriptions server (--url, --model)",
        isNetwork: true,
        unavailableReason: { options in
            let local = options.url.map { $0.contains("://127.") || $0.contains("://localhost") || $0.contains("://[::1]") } ?? false
            return options.apiKey == nil && !local ? "no API key (set OPENAI_API_KEY or use --api-key-file)" : nil
        },
        make: { options in
            var configuration = OpenAIEngine.Configuration()
            if let url = options.url { configuration.url = url }
            if let model = options.model { configuration.model = model }
            configuration.language = options.language
            configuration.prompt = options.prompt
            configuration.timeout = options.timeout
            configuration.maxSeconds = options.maxSeconds
            configuration.connections = options.jobs ?? 3
            return OpenAIEngine(configuration: configuration, apiKey: options.apiKey)
        })

    /// An external command per segment.
    public static let command = EngineDescriptor(
        name: "command", summary: "an external recogniser per segment (--exec 'CMD {wav}', or WAV on its stdin)",
        isNetwork: false,
        unavailableReason: { options in options.exec == nil ? "needs --exec COMMAND" : nil },
        make: { options in
            CommandEngine(command: options.exec ?? "", timeout: options.timeout, model: options.model, maxSeconds: options.maxSeconds)
        })
}
