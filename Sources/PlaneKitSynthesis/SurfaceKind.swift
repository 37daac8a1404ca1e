/// What a true plane of a synthetic scene is, for tests that check classification.
public enum SurfaceKind: String, Sendable, Codable, Hashable, CaseIterable {
    /// The room's floor (normal +Y).
    case floor
    /// The room's ceiling (normal −Y).
    case ceiling
    /// One of the room's four walls (normal horizontal, pointing into the room).
    case wall
    /// The top of a table (normal +Y, 0.7–0.8 m above the floor).
    case tableTop
    /// A vertical side of a table.
    case tableSide
    /// The top of a box standing on the floor.
    case boxTop
    /// A vertical side of a box.
    case boxSide
    /// Any other rectangle added to a hand-built scene.
    case other

    /// `true` for the kinds whose normal is vertical (floor, ceiling, table and box tops).
    public var isHorizontal: Bool {
        switch self {
        case .floor, .ceiling, .tableTop, .boxTop: return true
        case .wall, .tableSide, .boxSide, .other: return false
        }
    }
}
