/// A pointer's or an observer's part in a host hand-over (docs/protocol.md, "Host hand-over").
///
/// Such a peer has no standby listener and never takes over, but it keeps the host's order of
/// succession (sent with its welcome and whenever it changes) and, when the host goes, rejoins
/// the first successor that answers, in its own role and with its number: a pointer keeps
/// pointing, an observer keeps watching. A successor that has not noticed the host go yet takes
/// over on that `rejoin`, as it does for a device's.
struct HostFollower {
    /// The space's credentials (for the connection to the new host).
    let credentials: SpaceCredentials
    /// This peer's role, kept across the hand-over.
    let role: PeerRole
    /// The host's latest order of succession.
    var successors: [Successor] = []

    /// The host of `old` is gone: the connection to the new host and its entry, or `nil` when
    /// no successor answered within ``HostHandover/seconds``. `warn` gets one line for each that
    /// did not, and one naming the new host.
    func follow(_ old: ShareJoiner, warn: (String) -> Void) -> (joiner: ShareJoiner, host: PeerEntry)? {
        old.close()
        let candidates = successors.filter { $0.entry.id != old.host.id }
        guard let next = HostHandover.rejoin(candidates, as: old, role: role, credentials: credentials, warn: warn) else { return nil }
        warn(HostHandover.announcement(newHost: next.host.name, oldHost: old.host.name))
        return next
    }
}
