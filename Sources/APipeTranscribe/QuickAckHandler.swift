import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Acknowledges what the server sends at once, on every read of a kept-alive connection.
///
/// A server that writes its response head and body in two writes without TCP_NODELAY holds
/// the body back (Nagle) until the head is acknowledged, and Linux delays that ACK by 40 ms on
/// a connection in request-response mode, which every reused connection is. A fresh connection
/// starts in quick-ACK mode, so one connection per request (curl) never waits. TCP_QUICKACK
/// sends a pending ACK now, but is not sticky: it is set again after each read.
final class QuickAckHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        #if os(Linux)
        try? context.channel.syncOptions?.setOption(ChannelOptions.tcpOption(.init(rawValue: TCP_QUICKACK)), value: 1)
        #endif
        context.fireChannelRead(data)
    }

    /// Puts the handler first in a new connection's pipeline (the HTTP client's hook for it).
    @Sendable static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(QuickAckHandler(), position: .first)
        }
    }
}
