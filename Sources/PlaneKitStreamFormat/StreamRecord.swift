import PlaneKitGeometry

/// One record of a frame stream: a depth frame or a command about the latest frame.
///
/// See `docs/stream-format.md` for the text form of each kind.
public enum StreamRecord: Sendable {
    /// A depth frame or organized cloud with its camera.
    case frame(StreamFrame)
    /// Place an object with a hit test at a pixel of the latest frame.
    case tap(TapRecord)
    /// Move a placed object to where a pixel of the latest frame hits.
    case drag(DragRecord)
    /// Turn a placed object about its up axis.
    case rotate(RotateRecord)
    /// Remove a placed object.
    case remove(RemoveRecord)
    /// Cast a ray and report what it hits.
    case raycast(RaycastRecord)
    /// Write the session's world map to a file (`saveMap`).
    case saveMap(MapFileRecord)
    /// Load a world map and relocalize into it (`loadMap`).
    case loadMap(MapFileRecord)
    /// A phone's orientation, for `planekit pointer`.
    case attitude(AttitudeRecord)

    /// The record's `type` field.
    public var typeName: String {
        switch self {
        case .frame: return "frame"
        case .tap: return "tap"
        case .drag: return "drag"
        case .rotate: return "rotate"
        case .remove: return "remove"
        case .raycast: return "raycast"
        case .saveMap: return "saveMap"
        case .loadMap: return "loadMap"
        case .attitude: return "attitude"
        }
    }
}

/// `{"type":"tap","x":…,"y":…,"name":…,"size":[…]}`: place an object at a pixel.
public struct TapRecord: Sendable, Hashable {
    /// The pixel, in the latest frame's image coordinates (pixel centres at integers).
    public var pixel: SIMD2<Float>
    /// What the object is called (default `"object"`).
    public var name: String
    /// The object's size in metres: width, height (along the surface's normal) and depth
    /// (default 0.3 m each way).
    public var size: SIMD3<Float>

    /// The default object name.
    public static let defaultName = "object"
    /// The default object size (m).
    public static let defaultSize = SIMD3<Float>(repeating: 0.3)

    /// A tap at `pixel` placing an object called `name` of `size`.
    public init(pixel: SIMD2<Float>, name: String = TapRecord.defaultName, size: SIMD3<Float> = TapRecord.defaultSize) {
        self.pixel = pixel
        self.name = name
        self.size = size
    }
}

/// `{"type":"drag","object":…,"x":…,"y":…}`: move an object to where a pixel hits.
public struct DragRecord: Sendable, Hashable {
    /// The object's identifier, as its `objectAdded` event gave it.
    public var object: String
    /// The pixel, in the latest frame's image coordinates.
    public var pixel: SIMD2<Float>

    /// A drag of `object` to `pixel`.
    public init(object: String, pixel: SIMD2<Float>) {
        self.object = object
        self.pixel = pixel
    }
}

/// `{"type":"rotate","object":…,"angle":…}`: turn an object about its up axis.
public struct RotateRecord: Sendable, Hashable {
    /// The object's identifier.
    public var object: String
    /// The turn in radians, added to the object's current heading; positive turns
    /// counter-clockwise seen from above (from the side its up axis points to).
    public var angle: Float

    /// A turn of `object` by `angle` radians.
    public init(object: String, angle: Float) {
        self.object = object
        self.angle = angle
    }
}

/// `{"type":"remove","object":…}`: remove an object.
public struct RemoveRecord: Sendable, Hashable {
    /// The object's identifier.
    public var object: String

    /// The removal of `object`.
    public init(object: String) {
        self.object = object
    }
}

/// `{"type":"raycast",…}`: a ray from a pixel of the latest frame or from a world-space origin.
public struct RaycastRecord: Sendable, Hashable {
    /// Where the ray comes from.
    public enum Source: Sendable, Hashable {
        /// Through this pixel of the latest frame, from its camera.
        case pixel(SIMD2<Float>)
        /// From `origin` along the unit `direction`, both in world coordinates.
        case ray(origin: SIMD3<Float>, direction: SIMD3<Float>)
    }

    /// Where the ray comes from.
    public var source: Source
    /// What it may hit (default ``RaycastTarget/existingPlaneGeometry``).
    public var target: RaycastTarget
    /// Which plane orientations count (default ``RaycastAlignment/any``).
    public var alignment: RaycastAlignment

    /// A raycast from `source` against `target` with `alignment`.
    public init(source: Source, target: RaycastTarget = .existingPlaneGeometry, alignment: RaycastAlignment = .any) {
        self.source = source
        self.target = target
        self.alignment = alignment
    }
}
