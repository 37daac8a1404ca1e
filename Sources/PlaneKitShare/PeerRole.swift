/// What a peer is in a space, as its `hello` says: the host treats each kind differently.
public enum PeerRole: UInt8, Sendable {
    /// A device with a camera (`planekit stream --join`): gets the world map, shares poses and objects.
    case device = 0
    /// A phone used as a 3D mouse (`planekit pointer`): no frames, so no world map; streams attitudes.
    case pointer = 1
    /// A view that watches the space without taking part (`planekit view --join`): gets the
    /// world map, places nothing, sends no poses.
    case observer = 2
}
