import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitAnchors
import PlaneKitPlanes

/// A session's world, saved to be loaded again (like ARKit's `ARWorldMap`): the plane anchors
/// with their covered ground, the placed objects, a sparse sample of measured points with
/// normals and the keyframe poses it was taken from (what relocalization registers against),
/// the mapped region and the mapping status.
///
/// Everything is in the saving session's world (+Y up). ``WorldMapCoding`` writes and reads the
/// binary form of `docs/world-map.md`.
public struct WorldMap: Sendable, Equatable {
    /// A saved plane anchor: enough to restore the live anchor exactly (its fit, covered
    /// ground and identifier).
    public struct Anchor: Sendable, Equatable {
        /// The anchor's identifier, kept across sessions that load the map.
        public var identifier: PlaneIdentifier
        /// The world description (transform, extent, boundary, plane, class, …; `label` is 0).
        public var plane: DetectedPlane
        /// The fixed frame the covered cells are counted in.
        public var gridFrame: Transform
        /// Side of a covered cell (m).
        public var cellSize: Float
        /// The covered cells as runs along grid x: `(row, first column, count)`.
        public var cellRuns: [CellRun]
        /// The accumulated support moments of the fit.
        public var support: PointMoments
        /// Sighting counts: first and last frame seen, frames seen in.
        public var firstFrame: Int, lastSeenFrame: Int, observationCount: Int

        /// An anchor from its parts.
        public init(identifier: PlaneIdentifier, plane: DetectedPlane, gridFrame: Transform, cellSize: Float,
                    cellRuns: [CellRun], support: PointMoments, firstFrame: Int, lastSeenFrame: Int, observationCount: Int) {
            self.identifier = identifier
            self.plane = plane
            self.gridFrame = gridFrame
            self.cellSize = cellSize
            self.cellRuns = cellRuns
            self.support = support
            self.firstFrame = firstFrame
            self.lastSeenFrame = lastSeenFrame
            self.observationCount = observationCount
        }

        /// How many cells are covered.
        public var cellCount: Int { cellRuns.reduce(0) { $0 + Int($1.count) } }
    }

    /// A run of covered cells in one row of an anchor's grid.
    public struct CellRun: Sendable, Hashable {
        /// The row (grid z index).
        public var row: Int16
        /// The first column (grid x index).
        public var column: Int16
        /// How many cells, from `column` on.
        public var count: UInt16

        /// A run from its parts.
        public init(row: Int16, column: Int16, count: UInt16) {
            self.row = row
            self.column = column
            self.count = count
        }
    }

    /// A saved placed object.
    public struct Object: Sendable, Equatable {
        /// Its identifier, kept across sessions that load the map.
        public var identifier: PlacedObjectIdentifier
        /// What it is.
        public var name: String
        /// Width, height and depth (m).
        public var size: SIMD3<Float>
        /// Its anchor (centre of the bottom face, +Y along the plane normal).
        public var transform: Transform
        /// The plane it stands on, if any.
        public var planeIdentifier: PlaneIdentifier?
        /// The alignment it was placed with.
        public var alignment: PlaneAlignment

        /// An object from its parts.
        public init(identifier: PlacedObjectIdentifier, name: String, size: SIMD3<Float>, transform: Transform,
                    planeIdentifier: PlaneIdentifier?, alignment: PlaneAlignment) {
            self.identifier = identifier
            self.name = name
            self.size = size
            self.transform = transform
            self.planeIdentifier = planeIdentifier
            self.alignment = alignment
        }
    }

    /// The plane anchors, in identifier order.
    public var anchors: [Anchor]
    /// The placed objects, in identifier order.
    public var objects: [Object]
    /// The poses (world-from-camera) of the keyframes the points were sampled from.
    public var keyframes: [Transform]
    /// The sparse sample of measured points (world), at most one per 5 cm voxel.
    public var points: [SIMD3<Float>]
    /// The unit surface normal at each point (same count as ``points``).
    public var normals: [SIMD3<Float>]
    /// The mapping status when the map was saved.
    public var mappingStatus: MappingStatus
    /// The number the next new plane identifier takes (above every anchor's), so a session
    /// that loads the map never gives a new surface a saved anchor's name.
    public var nextPlaneNumber: UInt64
    /// The number the next new object identifier takes.
    public var nextObjectNumber: UInt64

    /// A map from its parts.
    public init(anchors: [Anchor], objects: [Object], keyframes: [Transform], points: [SIMD3<Float>], normals: [SIMD3<Float>],
                mappingStatus: MappingStatus, nextPlaneNumber: UInt64, nextObjectNumber: UInt64) {
        self.anchors = anchors
        self.objects = objects
        self.keyframes = keyframes
        self.points = points
        self.normals = normals
        self.mappingStatus = mappingStatus
        self.nextPlaneNumber = nextPlaneNumber
        self.nextObjectNumber = nextObjectNumber
    }

    /// The box around the anchors' outlines and the points (world), or `nil` for an empty map.
    public var bounds: AxisAlignedBox? {
        var lo = SIMD3<Float>(repeating: .infinity), hi = SIMD3<Float>(repeating: -.infinity)
        for anchor in anchors {
            for v in anchor.plane.boundary.vertices {
                let p = anchor.plane.transform.apply(toPoint: SIMD3(v.x, 0, v.y))
                lo = pointwiseMin(lo, p)
                hi = pointwiseMax(hi, p)
            }
        }
        for p in points {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        guard lo.x <= hi.x else { return nil }
        return AxisAlignedBox(minimum: lo, maximum: hi)
    }

    /// The centre of the mapped region (as ARKit's `center`), the origin for an empty map.
    public var center: SIMD3<Float> { bounds.map { ($0.minimum + $0.maximum) / 2 } ?? .zero }
    /// The size of the mapped region (as ARKit's `extent`), zero for an empty map.
    public var extent: SIMD3<Float> { bounds.map { $0.maximum - $0.minimum } ?? .zero }
}
