import PlaneKitGeometry

/// Labels planes floor, ceiling, wall, table or seat from their alignment, the way they face and
/// their height above the floor (``PlaneClassification``).
///
/// The rules, in order:
/// - **Floor**: the lowest up-facing horizontal plane with at least ``minimumFloorArea`` of
///   area (default 1 m²: a room's visible floor is larger than any table top, which keeps a big
///   desk seen from above from becoming the floor when the floor itself is hidden).
/// - **Table**: an up-facing horizontal plane whose height above the floor is in
///   ``tableHeights`` (0.6–1.2 m) with at least ``minimumSurfaceArea`` of area.
/// - **Seat**: likewise with ``seatHeights`` (0.3–0.6 m): chairs, sofas, benches, stools.
/// - **Ceiling**: a down-facing horizontal plane at least ``minimumCeilingHeight`` (1.8 m) above
///   the floor; with no floor known, at least ``minimumCeilingAboveSensor`` (0.5 m) above the
///   sensor. Either way it needs ``minimumCeilingArea``.
/// - **Wall**: a vertical plane with at least ``minimumWallArea`` of area that spans at least
///   ``minimumWallHeight`` vertically (a cupboard front or a box side stays `none`).
/// - Everything else is `none`.
///
/// With no floor found, up-facing horizontal planes stay `none`: without a floor their height
/// means nothing (a table top and a patch of floor look alike), as ARKit reports `.none` until
/// it knows better. Ceilings and walls do not need a floor.
public struct PlaneClassifier: Sendable, Hashable {
    /// The least area (m²) of a floor.
    public var minimumFloorArea: Float = 1.0
    /// Heights above the floor (m) of a table top.
    public var tableHeights: Range<Float> = 0.6..<1.2
    /// Heights above the floor (m) of a seat.
    public var seatHeights: Range<Float> = 0.3..<0.6
    /// The least area (m²) of a table top or seat.
    public var minimumSurfaceArea: Float = 0.05
    /// The least height of a ceiling above the floor (m).
    public var minimumCeilingHeight: Float = 1.8
    /// With no floor known: the least height of a ceiling above the sensor (m).
    public var minimumCeilingAboveSensor: Float = 0.5
    /// The least area (m²) of a ceiling.
    public var minimumCeilingArea: Float = 0.5
    /// The least area (m²) of a wall.
    public var minimumWallArea: Float = 0.75
    /// The least vertical span (m) of a wall.
    public var minimumWallHeight: Float = 0.75

    /// The default rules.
    public init() {}

    /// The floor among `planes` (horizontal alignment judged by each plane's `alignment`): the
    /// lowest large up-facing horizontal plane, as an index into `planes`.
    public func floorIndex(of planes: [DetectedPlane], up: SIMD3<Float>) -> Int? {
        let up = normalize(up)
        var best: Int? = nil, bestHeight = Float.infinity
        for (i, plane) in planes.enumerated()
        where plane.alignment == .horizontal && dot(plane.normal, up) > 0 && plane.area >= minimumFloorArea {
            let height = dot(plane.centroid, up)
            if height < bestHeight { (best, bestHeight) = (i, height) }
        }
        return best
    }

    /// Sets every plane's `classification`. `up` is the up direction and `sensor` the sensor's
    /// position, both in the planes' coordinates.
    public func classify(_ planes: inout [DetectedPlane], up: SIMD3<Float>, sensor: SIMD3<Float> = .zero) {
        let up = normalize(up)
        let floor = floorIndex(of: planes, up: up)
        let floorHeight = floor.map { dot(planes[$0].centroid, up) }
        let sensorHeight = dot(sensor, up)
        for i in planes.indices {
            planes[i].classification = classification(of: planes[i], isFloor: i == floor, floorHeight: floorHeight,
                                                      sensorHeight: sensorHeight, up: up)
        }
    }

    private func classification(of plane: DetectedPlane, isFloor: Bool, floorHeight: Float?, sensorHeight: Float,
                                up: SIMD3<Float>) -> PlaneClassification {
        if isFloor { return .floor }
        let height = dot(plane.centroid, up)
        switch plane.alignment {
        case .horizontal where dot(plane.normal, up) > 0:
            guard let floorHeight, plane.area >= minimumSurfaceArea else { return .none }
            let above = height - floorHeight
            if tableHeights.contains(above) { return .table }
            if seatHeights.contains(above) { return .seat }
            return .none
        case .horizontal:
            guard plane.area >= minimumCeilingArea else { return .none }
            if let floorHeight {
                return height - floorHeight >= minimumCeilingHeight ? .ceiling : .none
            }
            return height - sensorHeight >= minimumCeilingAboveSensor ? .ceiling : .none
        case .vertical:
            guard plane.area >= minimumWallArea, verticalSpan(of: plane, up: up) >= minimumWallHeight else { return .none }
            return .wall
        case .any:
            return .none
        }
    }

    /// How far the plane's outline reaches along `up` (m).
    func verticalSpan(of plane: DetectedPlane, up: SIMD3<Float>) -> Float {
        var low = Float.infinity, high = -Float.infinity
        for vertex in plane.boundary.vertices {
            let h = dot(plane.transform.apply(toPoint: SIMD3(vertex.x, 0, vertex.y)), up)
            low = min(low, h)
            high = max(high, h)
        }
        return high >= low ? high - low : 0
    }
}
