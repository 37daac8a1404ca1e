import CAvahi
import Synchronization

/// A client of avahi-daemon with its event loop running on Avahi's own thread
/// (`AvahiThreadedPoll`).
///
/// Avahi's callbacks run on that thread; any other thread touches Avahi objects only inside
/// ``locked(_:)``. Unchecked Sendable for that reason: the pointers are shared, their use is
/// serialised by the poll's lock. ``close()`` stops the thread before freeing the client, so no
/// callback runs after it.
final class AvahiLoop: @unchecked Sendable {
    /// The threaded event loop.
    private let poll: OpaquePointer
    /// The connection to avahi-daemon (over the D-Bus system bus).
    let client: OpaquePointer
    /// Set by the first ``close()``: the poll and its lock are gone after it.
    private let closed = Atomic(false)

    /// Connects to avahi-daemon and starts the event loop.
    ///
    /// - Throws: ``DiscoveryError/daemonNotRunning`` when no daemon answers on the system bus
    ///   (or there is none).
    init() throws(DiscoveryError) {
        guard let poll = avahi_threaded_poll_new() else {
            throw DiscoveryError.avahi(operation: "creating its event loop", code: 0, message: "out of memory")
        }
        var error: Int32 = 0
        // No flags: fail at once when the daemon is absent rather than wait for it to appear.
        guard let client = avahi_client_new(avahi_threaded_poll_get(poll), AvahiClientFlags(0), { _, _, _ in }, nil, &error)
        else {
            avahi_threaded_poll_free(poll)
            throw DiscoveryError(avahiCode: error, operation: "connecting to avahi-daemon")
        }
        guard avahi_threaded_poll_start(poll) >= 0 else {
            avahi_client_free(client)
            avahi_threaded_poll_free(poll)
            throw DiscoveryError.avahi(operation: "starting its event loop", code: 0, message: "thread not started")
        }
        self.poll = poll
        self.client = client
    }

    deinit { close() }

    /// Runs `body` with the event loop held, so it may call Avahi from this thread.
    func locked<Result>(_ body: () throws(DiscoveryError) -> Result) throws(DiscoveryError) -> Result {
        avahi_threaded_poll_lock(poll)
        defer { avahi_threaded_poll_unlock(poll) }
        return try body()
    }

    /// The client's last error, as a ``DiscoveryError`` for `operation`. Call inside ``locked(_:)``
    /// or on the loop's thread.
    func lastError(_ operation: String) -> DiscoveryError {
        DiscoveryError(avahiCode: avahi_client_errno(client), operation: operation)
    }

    /// Stops the loop's thread, then frees the client and with it everything it published or
    /// looked up (the daemon withdraws the client's services). Idempotent; never call it from
    /// an Avahi callback (the loop's thread cannot join itself).
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        avahi_threaded_poll_stop(poll)
        avahi_client_free(client)
        avahi_threaded_poll_free(poll)
    }
}
