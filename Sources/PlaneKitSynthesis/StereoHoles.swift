/// Where an active stereo camera fails to match: in patches, on surfaces seen at grazing angles
/// and where the projected dot pattern has faded with distance (too little texture to match).
///
/// A smooth random field `f(u, v)` in [0, 1] (bilinear between uniform values on a lattice of
/// ``blobSize``-pixel cells) is drawn for each frame, and a reading is lost where
/// `f < max(ramp(cos θ; cos grazingStart, cos grazingEnd), ramp(z; fadeStart, fadeEnd))`,
/// `ramp` rising linearly from 0 to 1 between its two bounds (θ is the incidence angle). So a surface facing the camera up close keeps
/// every pixel, while holes grow in blobs as it turns away or recedes.
public struct StereoHoles: Sendable, Hashable {
    /// Side of the field's lattice cells (pixels): about the size of a hole.
    public var blobSize: Int
    /// Incidence angle (degrees) at which matching starts to fail.
    public var grazingStart: Float
    /// Incidence angle (degrees) at which it always fails.
    public var grazingEnd: Float
    /// Depth (m) at which the projected pattern starts to fade.
    public var fadeStart: Float
    /// Depth (m) beyond which nothing is matched.
    public var fadeEnd: Float

    /// Stereo holes from their parts.
    public init(blobSize: Int = 12, grazingStart: Float = 55, grazingEnd: Float = 82, fadeStart: Float = 3.5, fadeEnd: Float = 9) {
        self.blobSize = max(1, blobSize)
        self.grazingStart = grazingStart
        self.grazingEnd = grazingEnd
        self.fadeStart = fadeStart
        self.fadeEnd = fadeEnd
    }

    /// A ramp in the cosine of the incidence angle: 0 up to the angle `from`, rising linearly in
    /// the cosine to 1 at the angle `to`.
    struct CosineRamp {
        let cosStart: Float, cosEnd: Float

        init(from start: Float, to end: Float) {
            cosStart = SimulatedSensorRenderer.cosine(start)
            cosEnd = SimulatedSensorRenderer.cosine(end)
        }

        @inline(__always)
        func callAsFunction(cosIncidence c: Float) -> Float {
            // Cosines fall as the angle grows, so the ramp runs from cosStart down to cosEnd.
            StereoHoles.ramp(-c, -cosStart, -cosEnd)
        }
    }

    /// The threshold the field must reach for a pixel to be matched, as a function of the
    /// cosine of the incidence angle and the depth.
    struct Threshold {
        let grazing: CosineRamp, fadeStart: Float, fadeEnd: Float

        @inline(__always)
        func callAsFunction(cosIncidence c: Float, depth z: Float) -> Float {
            max(grazing(cosIncidence: c), StereoHoles.ramp(z, fadeStart, fadeEnd))
        }
    }

    /// The threshold function, its angles turned into cosines once.
    var threshold: Threshold {
        Threshold(grazing: CosineRamp(from: grazingStart, to: grazingEnd), fadeStart: fadeStart, fadeEnd: fadeEnd)
    }

    @inline(__always)
    private static func ramp(_ x: Float, _ start: Float, _ end: Float) -> Float {
        guard end > start else { return x >= start ? 1 : 0 }
        return min(max((x - start) / (end - start), 0), 1)
    }
}
