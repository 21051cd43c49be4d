import AsyncHTTPClient
import Foundation

/// Any OpenAI-compatible `POST /v1/audio/transcriptions` endpoint (OpenAI, a local
/// whisper server, a gateway): a multipart WAV upload, `verbose_json` asked for.
///
/// The API key travels only in the `Authorization` header; it never appears in an error,
/// a description or the stream, even when a server echoes it back.
public final class OpenAIEngine: TranscriptionEngine {
    public struct Configuration: Sendable {
        /// Base URL: `https://api.openai.com`, or one ending in `/v1`.
        public var url: String = "https://api.openai.com"
        public var model: String = "whisper-1"
        public var language: String?
        public var prompt: String?
        /// Seconds for one request, connection to the answer's last byte.
        public var timeout: Double = 120
        /// Requests at once (sizes the connection pool).
        public var connections: Int = 3
        /// The upload limit: OpenAI takes files up to 25 MB.
        public var maxUploadBytes: Int = 25_000_000
        /// A shorter piece length than the upload limit allows, if wanted.
        public var maxSeconds: Double?
        public var rate: Int = 16000

        public init() {}
    }

    public let configuration: Configuration
    private let apiKey: String?
    /// Every error text passes through it: a server may echo the key back.
    private let redactor: SecretRedactor
    private let client: HTTPClient
    private let endpoint: String
    private let formatFallback = FormatMemory()
    public var name: String { "openai" }
    public var method: String { "remote-api" }
    public var isNetwork: Bool { true }
    public var model: String? { configuration.model }
    public var preferredRate: Int { configuration.rate }

    /// Creates the engine; `apiKey` may be nil for local servers that need none.
    public init(configuration: Configuration, apiKey: String?) {
        self.configuration = configuration
        self.apiKey = apiKey.flatMap { $0.isEmpty ? nil : $0 }
        self.redactor = SecretRedactor(secret: apiKey)
        self.endpoint = Self.endpoint(base: configuration.url)
        var http = HTTPClient.Configuration()
        let seconds = Int64(max(1, (configuration.timeout * 1000).rounded()))
        http.timeout.connect = .milliseconds(min(seconds, 10_000))
        http.timeout.read = .milliseconds(seconds)
        http.connectionPool.retryConnectionEstablishment = false
        http.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(8, configuration.connections)
        http.http1_1ConnectionDebugInitializer = QuickAckHandler.install
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
    }

    /// The server's host (and port), as the transcription's provider.
    public var provider: String {
        guard let url = URL(string: endpoint), let host = url.host else { return "openai-compatible" }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// The longest piece whose WAV stays under the upload limit.
    public var maxSeconds: Double? {
        let byUpload = Double(configuration.maxUploadBytes - 44) / Double(configuration.rate * 2)
        return min(byUpload, configuration.maxSeconds ?? .infinity)
    }

    /// `<base>/v1/audio/transcriptions`, not doubling a `/v1` the base already has.
    static func endpoint(base: String) -> String {
        var trimmed = base
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed.hasSuffix("/v1") ? trimmed + "/audio/transcriptions" : trimmed + "/v1/audio/transcriptions"
    }

    public func transcribe(_ audio: SegmentAudio) async throws(EngineError) -> EngineResult {
        var converted = audio.resampled(to: configuration.rate)
        // The API refuses audio under 0.1 s; silence makes it long enough without changing the text.
        let minimum = configuration.rate / 10
        if converted.samples.count < minimum {
            converted.samples.append(contentsOf: repeatElement(0, count: minimum - converted.samples.count))
        }
        let wav = converted.wav()
        guard wav.count <= configuration.maxUploadBytes else {
            throw .badAudio("\(Int(converted.duration)) s of audio is over the \(configuration.maxUploadBytes)-byte upload limit")
        }
        let verbose = !formatFallback.plainJSON
        do {
            do {
                return try await send(wav, verbose: verbose)
            } catch .rejected(_, let message) where verbose && message.contains("response_format") {
                formatFallback.plainJSON = true
                return try await send(wav, verbose: false)
            }
        } catch {
            throw redactor.clean(error)
        }
    }

    private func send(_ wav: [UInt8], verbose: Bool) async throws(EngineError) -> EngineResult {
        var form = MultipartForm()
        form.addFile(name: "file", filename: "segment.wav", contentType: "audio/wav", data: wav)
        form.addField(name: "model", value: configuration.model)
        form.addField(name: "response_format", value: verbose ? "verbose_json" : "json")
        if verbose { form.addField(name: "timestamp_granularities[]", value: "segment") }
        if let language = configuration.language { form.addField(name: "language", value: language) }
        if let prompt = configuration.prompt { form.addField(name: "prompt", value: prompt) }
        let body = form.finish()

        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: form.contentType)
        request.headers.add(name: "Accept", value: "application/json")
        if let apiKey { request.headers.add(name: "Authorization", value: "Bearer \(apiKey)") }
        request.body = .bytes(body)

        let reply: Reply
        do {
            reply = try await exchange(request)
        } catch {
            throw Self.classify(error, timeout: configuration.timeout)
        }
        return try OpenAIResponse.parse(status: reply.status, headers: reply.headers, body: reply.body, redactor: redactor)
    }

    private struct Reply: Sendable {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
    }

    /// Sends the request and reads the whole answer within `timeout`: the client's own deadline
    /// ends with the response head, and its read timeout restarts with every byte, so a server
    /// trickling its body would hold the request for as long as it likes.
    private func exchange(_ request: HTTPClientRequest) async throws -> Reply {
        let client = self.client
        let timeout = configuration.timeout
        return try await withThrowingTaskGroup(of: Reply?.self) { group in
            group.addTask {
                let response = try await client.execute(request, timeout: .milliseconds(Int64((timeout * 1000).rounded(.up))))
                let collected = try await response.body.collect(upTo: 16 << 20)
                return Reply(
                    status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                    body: Array(collected.readableBytesView))
            }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let reply = first else { throw HTTPClientError.deadlineExceeded }
            return reply
        }
    }

    /// Maps a transport error to an engine error, without the request in it.
    static func classify(_ error: any Error, timeout: Double) -> EngineError {
        if error is CancellationError { return .connection("cancelled") }
        if let http = error as? HTTPClientError {
            switch http {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
                return .timeout(seconds: timeout)
            case .remoteConnectionClosed: return .connection("the server closed the connection before answering")
            case .cancelled: return .connection("cancelled")
            default: return .connection(String(describing: http))
            }
        }
        let text = String(describing: error)
        if text.contains("onnectionRefused") || text.contains("refused") {
            return .offline("connection refused")
        }
        if text.contains("NIOConnectionError") || text.contains("unreachable") || text.contains("resolve") || text.contains("getaddrinfo") {
            return .offline(String(text.prefix(200)))
        }
        if String(describing: type(of: error)).contains("TooManyBytes") { return .badResponse("the answer is over 16 MiB") }
        return .connection(String(text.prefix(200)))
    }

    public func shutdown() async {
        try? await client.shutdown()
    }
}

/// Remembers that a server refused `verbose_json`, so later requests ask for plain `json`.
private final class FormatMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var plain = false
    var plainJSON: Bool {
        get { lock.lock(); defer { lock.unlock() }; return plain }
        set { lock.lock(); plain = newValue; lock.unlock() }
    }
}
