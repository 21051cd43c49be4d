import APipeStream
import CALSA

#if canImport(Glibc)
import Glibc
#endif

/// Captures interleaved s16 frames from an ALSA PCM device through the real capture API.
public final class ALSACapture {
    private let pcm: OpaquePointer
    public let device: String
    public let rate: Int
    public let channels: Int
    /// Frames per period (one read), chosen near 50 ms.
    public let periodFrames: Int
    /// Overruns recovered so far.
    public private(set) var xruns = 0

    public init(device: String, rate: Int, channels: Int) throws(AudioError) {
        var handle: OpaquePointer?
        var status = snd_pcm_open(&handle, device, SND_PCM_STREAM_CAPTURE, 0)
        guard status >= 0, let pcm = handle else { throw .device(name: device, reason: Self.message(status)) }
        self.pcm = pcm
        self.device = device
        self.channels = channels
        var params: OpaquePointer?
        snd_pcm_hw_params_malloc(&params)
        defer { snd_pcm_hw_params_free(params) }
        var actualRate = UInt32(rate)
        var period = snd_pcm_uframes_t(max(rate / 20, 32))
        var direction: Int32 = 0
        status = snd_pcm_hw_params_any(pcm, params)
        if status >= 0 { status = snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED) }
        if status >= 0 { status = snd_pcm_hw_params_set_format(pcm, params, SND_PCM_FORMAT_S16_LE) }
        if status >= 0 { status = snd_pcm_hw_params_set_channels(pcm, params, UInt32(channels)) }
        if status >= 0 { status = snd_pcm_hw_params_set_rate_near(pcm, params, &actualRate, &direction) }
        if status >= 0 { status = snd_pcm_hw_params_set_period_size_near(pcm, params, &period, &direction) }
        if status >= 0 { status = snd_pcm_hw_params(pcm, params) }
        guard status >= 0 else {
            snd_pcm_close(pcm)
            throw .device(name: device, reason: "cannot capture \(channels) ch s16 at \(rate) Hz: \(Self.message(status))")
        }
        self.rate = Int(actualRate)
        self.periodFrames = Int(period)
    }

    deinit { snd_pcm_close(pcm) }

    /// Reads up to `frames` frames into `buffer` (interleaved s16). Returns frames read; 0 when a
    /// signal interrupted the wait. Overruns are recovered and reported through `lostFrames`.
    public func read(frames: Int, into buffer: inout [Int16], overrun: inout Bool) throws(AudioError) -> Int {
        if buffer.count < frames * channels { buffer = [Int16](repeating: 0, count: frames * channels) }
        overrun = false
        while true {
            let got = buffer.withUnsafeMutableBytes { snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(frames)) }
            if got >= 0 { return Int(got) }
            let status = Int32(got)
            if status == -EINTR { return 0 }
            if status == -EAGAIN { continue }
            // -EPIPE is an overrun, -ESTRPIPE a suspend: both recoverable, never fatal.
            let recovered = snd_pcm_recover(pcm, status, 1)
            guard recovered >= 0 else { throw .device(name: device, reason: Self.message(status)) }
            if status == -EPIPE {
                xruns += 1
                overrun = true
            }
        }
    }

    private static func message(_ status: Int32) -> String {
        String(cString: snd_strerror(status))
    }
}
