// swift-tools-version:6.0
// apipe: a Unix-filter audio toolkit. Dependencies point one way:
// C shims -> stream format / DSP core / audio I/O / store -> stages and engines -> thin executables.
import PackageDescription

let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")

let package = Package(
    name: "apipe",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "acapture", targets: ["acapture"]),
        .executable(name: "asegment", targets: ["asegment"]),
        .executable(name: "aresample", targets: ["aresample"]),
        .executable(name: "atranscribe", targets: ["atranscribe"]),
        .executable(name: "aindex", targets: ["aindex"]),
        .executable(name: "acat", targets: ["acat"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // System libraries (Debian -dev packages, found through pkg-config).
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSampleRate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "COpenBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),

        // Core libraries.
        .target(name: "APipeStream"),
        .target(name: "APipeDSP"),
        .target(name: "APipeAudio", dependencies: ["APipeStream", "CSndFile", "CSampleRate", "CALSA"]),
        .target(name: "APipeCLI", dependencies: ["APipeStream", argumentParser]),

        // Stages, engines and the library store.
        .target(name: "APipeCapture", dependencies: ["APipeStream", "APipeAudio", "APipeDSP", "APipeResample"]),
        .target(name: "APipeResample", dependencies: ["APipeStream", "APipeDSP", "APipeAudio"]),
        .target(name: "APipeSegment", dependencies: ["APipeStream", "APipeDSP"]),
        .target(name: "APipeWhisper", dependencies: ["APipeDSP", "COpenBLAS"]),
        .target(
            name: "APipeTranscribe",
            dependencies: [
                "APipeStream", "APipeDSP", "APipeAudio", "APipeCat", "APipeWhisper",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .target(
            name: "APipeStore",
            dependencies: ["APipeStream", "APipeAudio", .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "APipeCat", dependencies: ["APipeStream", "APipeAudio"]),

        // Thin executables: parse arguments, wire libraries, map errors to exit codes.
        .executableTarget(name: "acapture", dependencies: ["APipeCapture", "APipeCLI", argumentParser]),
        .executableTarget(name: "asegment", dependencies: ["APipeSegment", "APipeCLI", argumentParser]),
        .executableTarget(name: "aresample", dependencies: ["APipeResample", "APipeCLI", argumentParser]),
        .executableTarget(name: "atranscribe", dependencies: ["APipeTranscribe", "APipeCLI", argumentParser]),
        .executableTarget(name: "aindex", dependencies: ["APipeStore", "APipeCLI", argumentParser]),
        .executableTarget(name: "acat", dependencies: ["APipeCat", "APipeCLI", argumentParser]),
        // Benchmark driver for the Whisper engine (bench/whisper.mk).
        .executableTarget(name: "apipe-whisper-bench", dependencies: ["APipeWhisper"], path: "bench/whisper/Driver"),

        // Benchmark drivers (make bench): the VAD, the resampler, the transcription queue.
        .executableTarget(name: "apipe-vad-bench", dependencies: ["APipeDSP"], path: "bench/vad/Driver"),
        .executableTarget(name: "apipe-resample-bench", dependencies: ["APipeDSP"], path: "bench/resample/Driver"),
        .executableTarget(
            name: "apipe-transcribe-bench",
            dependencies: [
                "APipeTranscribe", "APipeStream", .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            path: "bench/transcribe/Driver"),

        // Tests: one target per library, plus end-to-end tests through the built binaries.
        .testTarget(name: "APipeStreamTests", dependencies: ["APipeStream"]),
        .testTarget(name: "APipeDSPTests", dependencies: ["APipeDSP"]),
        .testTarget(name: "APipeAudioTests", dependencies: ["APipeAudio"]),
        .testTarget(name: "APipeSegmentTests", dependencies: ["APipeSegment", "APipeDSP"]),
        .testTarget(name: "APipeWhisperTests", dependencies: ["APipeWhisper"]),
        .testTarget(
            name: "APipeTranscribeTests",
            dependencies: ["APipeTranscribe", .product(name: "FlyingFox", package: "FlyingFox")]),
        .testTarget(
            name: "APipeStoreTests",
            dependencies: ["APipeStore", "APipeStream", "APipeAudio", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "EndToEndTests", dependencies: ["APipeStream", "APipeAudio"]),
    ]
)
