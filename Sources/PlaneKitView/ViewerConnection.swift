import HummingbirdWebSocket
import NIOWebSocket

/// One viewer's WebSocket: sends what the hub queued for it, in order, as text messages of
/// NDJSON lines, and reads what the client sends only to notice it leaving.
///
/// Viewers send nothing: a client that sends a data message is closed with 1008 (policy
/// violation). A malformed frame, or one longer than the server's frame limit, is closed by the
/// WebSocket layer itself. Either way only that client goes.
struct ViewerConnection: Sendable {
    let hub: ViewHub

    /// Why the connection ends early.
    private struct ClientSpoke: Error {}

    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let subscription = hub.connect()
        defer { hub.disconnect(subscription.id) }
        let hub = self.hub
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Reading also answers pings and notices the close handshake.
                    for try await _ in inbound { throw ClientSpoke() }
                }
                group.addTask {
                    for await _ in subscription.wakeUps {
                        guard let messages = hub.take(subscription.id) else { return }
                        // One WebSocket message per delivery: a batch of whole lines.
                        if !messages.isEmpty { try await outbound.write(.text(messages.joined())) }
                    }
                }
                // Whichever ends first (the client left or spoke, or the server stops) ends both.
                try await group.next()
                group.cancelAll()
            }
        } catch is ClientSpoke {
            try await outbound.close(.policyViolation, reason: "the view takes no messages")
        }
    }
}
