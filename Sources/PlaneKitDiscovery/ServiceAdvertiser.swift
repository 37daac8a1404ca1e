import CAvahi

/// Publishes one service on DNS-SD through avahi-daemon until ``stop()`` (or deinit) withdraws it.
///
/// Creating one blocks until the daemon has probed the name and announced the service, or the
/// timeout passes. When another host already uses the name, Avahi's next alternative is taken
/// ("Kitchen" becomes "Kitchen #2"), as DNS-SD asks; ``name`` is the one in use.
///
/// ```swift
/// let advertiser = try ServiceAdvertiser(.planeKit(name: "Kitchen", port: 7400, protocolVersion: 1))
/// defer { advertiser.stop() }
/// ```
public final class ServiceAdvertiser: Sendable {
    /// What was asked to be published (``name`` is the instance name actually in use).
    public let advertisement: ServiceAdvertisement
    private let loop: AvahiLoop
    private let publication: Publication

    /// Publishes `advertisement` and waits until it is established.
    ///
    /// - Throws: ``DiscoveryError/daemonNotRunning`` without avahi-daemon,
    ///   ``DiscoveryError/invalidAdvertisement(_:)`` for a name, port or TXT entry DNS-SD cannot
    ///   carry, ``DiscoveryError/notEstablished(name:timeout:)`` when the daemon did not finish in
    ///   time, ``DiscoveryError/avahi(operation:code:message:)`` when it refused.
    public init(_ advertisement: ServiceAdvertisement, timeout: Duration = .seconds(5)) throws(DiscoveryError) {
        if let problem = advertisement.problem { throw .invalidAdvertisement(problem) }
        let loop = try AvahiLoop()
        let publication = Publication(advertisement: advertisement, loop: loop)
        do {
            try loop.locked { () throws(DiscoveryError) in try publication.start() }
        } catch {
            loop.close()
            throw error
        }
        let outcome = publication.state.wait(timeout: timeout) { $0.isSettled }
        switch outcome {
        case .established:
            self.advertisement = advertisement
        case .failed(let error):
            loop.close()
            throw error
        case .registering:
            loop.close()
            throw .notEstablished(name: advertisement.name, timeout: timeout)
        }
        self.loop = loop
        self.publication = publication
    }

    /// The instance name in use: the requested one, or Avahi's alternative after a collision
    /// (which may also happen later, when a host with the same name appears).
    public var name: String {
        if case .established(let name) = publication.state.value { return name }
        return advertisement.name
    }

    /// Withdraws the service (the daemon sends goodbye packets) and ends the event loop.
    /// Idempotent.
    public func stop() {
        loop.close()
    }

    deinit { loop.close() }
}

/// Where a publication stands, as seen from the caller.
enum PublicationState: Sendable {
    /// Added and committed; the daemon is probing the name.
    case registering
    /// Announced under this name.
    case established(String)
    /// Withdrawn for good.
    case failed(DiscoveryError)

    /// Whether the caller can stop waiting.
    var isSettled: Bool {
        if case .registering = self { return false }
        return true
    }
}

/// One entry group on avahi-daemon and the state of its publication.
///
/// Created and used inside the loop's lock or on its thread (Avahi's callbacks): unchecked
/// Sendable for the group pointer and the current name, which only those touch.
private final class Publication: @unchecked Sendable {
    /// Renames tried after collisions before giving up: a network full of equal names is a fault.
    private static let maximumRenames = 16

    let state = WaitableState(PublicationState.registering)
    private let advertisement: ServiceAdvertisement
    private let loop: AvahiLoop
    private var group: OpaquePointer?
    private var name: String
    private var renames = 0

    init(advertisement: ServiceAdvertisement, loop: AvahiLoop) {
        self.advertisement = advertisement
        self.loop = loop
        name = advertisement.name
    }

    /// Creates the entry group and publishes under the current name. Inside the loop's lock.
    func start() throws(DiscoveryError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        // The entry group calls back with its state; the group is freed with the client.
        guard let group = avahi_entry_group_new(loop.client, { _, groupState, context in
            guard let context else { return }
            Unmanaged<Publication>.fromOpaque(context).takeUnretainedValue().changed(to: groupState)
        }, context) else {
            throw loop.lastError("creating an entry group")
        }
        self.group = group
        try publish()
    }

    /// Adds the service under `name` and commits the group.
    private func publish() throws(DiscoveryError) {
        guard let group else { return }
        var txt: UnsafeMutablePointer<AvahiStringList>? = nil
        for (key, value) in advertisement.txt.sorted(by: { $0.key < $1.key }) {
            txt = avahi_string_list_add_pair(txt, key, value)
        }
        defer { avahi_string_list_free(txt) }
        let added = avahi_entry_group_add_service_strlst(
            group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0),
            name, advertisement.type, nil, nil, advertisement.port, txt)
        guard added >= 0 else {
            throw DiscoveryError(avahiCode: added, operation: "adding service \"\(name)\"")
        }
        let committed = avahi_entry_group_commit(group)
        guard committed >= 0 else {
            throw DiscoveryError(avahiCode: committed, operation: "committing service \"\(name)\"")
        }
    }

    /// The entry group's callback, on the loop's thread.
    private func changed(to groupState: AvahiEntryGroupState) {
        switch groupState {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            let name = self.name
            state.update { $0 = .established(name) }
        case AVAHI_ENTRY_GROUP_COLLISION:
            rename()
        case AVAHI_ENTRY_GROUP_FAILURE:
            let error = loop.lastError("publishing service \"\(name)\"")
            state.update { $0 = .failed(error) }
        default:
            break
        }
    }

    /// Takes Avahi's alternative to a name someone else holds and publishes again.
    private func rename() {
        renames += 1
        guard renames <= Self.maximumRenames, let alternative = avahi_alternative_service_name(name) else {
            let name = self.name
            state.update { $0 = .failed(.avahi(operation: "publishing service \"\(name)\"", code: Int32(AVAHI_ERR_COLLISION),
                                               message: "name collision")) }
            return
        }
        name = String(cString: alternative)
        avahi_free(alternative)
        avahi_entry_group_reset(group)
        do {
            try publish()
        } catch {
            state.update { $0 = .failed(error) }
        }
    }
}
