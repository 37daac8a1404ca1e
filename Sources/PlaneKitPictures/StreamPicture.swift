import PlaneKitGeometry
import PlaneKitInput
import PlaneKitAnchors

/// A picture of a streamed frame after tracking: the frame's ``SegmentationPicture`` with every
/// plane pixel coloured by the anchor it went to (the same surface keeps its colour from frame
/// to frame; a surface not confirmed as an anchor yet is drawn like points on no plane), the
/// focus indicator drawn where it is, and the placed objects as box outlines.
///
/// The focus indicator is a square of ``focusSide`` metres in its surface: closed and yellow
/// when on a plane, only its corners and orange when on an estimated surface, a small grey cross
/// at the image centre while initializing, nothing when hidden. Objects are white outlines of
/// their bounding boxes, magenta while snapping.
public struct StreamPicture: Sendable {
    /// The side of the drawn focus square (m).
    public static let focusSide: Float = 0.25
    /// Focus square on a plane.
    public static let onPlaneColour = SIMD3<UInt8>(255, 220, 0)
    /// Focus corners on an estimated surface.
    public static let estimatedColour = SIMD3<UInt8>(255, 140, 0)
    /// Focus cross while initializing.
    public static let initializingColour = SIMD3<UInt8>(200, 200, 200)
    /// Placed objects.
    public static let objectColour = SIMD3<UInt8>(255, 255, 255)
    /// Objects while snapping.
    public static let snappingColour = SIMD3<UInt8>(255, 0, 255)

    private let base: SegmentationPicture
    private let camera: PinholeCamera
    private let focus: FocusIndicator
    private let objects: [ObjectAnchor]

    /// The picture of `session`'s latest frame, whose measured points are `cloud`, or `nil` before
    /// the first.
    public init?(session: Session, cloud: PointCloud?) {
        guard let cloud, let detection = session.latestDetection, let camera = session.camera else {
            return nil
        }
        let assignments = session.latestAssignments
        var labels = detection.labels
        if assignments.contains(nil) {
            // A surface not confirmed yet is no anchor: its pixels are drawn as on no plane.
            for i in labels.indices where labels[i] != 0 && assignments[Int(labels[i]) - 1] == nil { labels[i] = 0 }
        }
        base = SegmentationPicture(cloud: cloud, labels: labels, keys: assignments.map { $0?.rawValue ?? 0 })
        self.camera = camera
        focus = session.focus
        objects = session.objects
    }

    /// The RGB picture, the frame's size.
    public func image() throws(InputError) -> RGBImage {
        var canvas = PictureCanvas(image: try base.image(), camera: camera)
        drawFocus(on: &canvas)
        for object in objects {
            let corners = object.bounds.corners
            let colour = object.snap == nil ? StreamPicture.objectColour : StreamPicture.snappingColour
            // Corner i has bit 2 for +X, bit 1 for +Y, bit 0 for +Z: edges join corners one bit apart.
            for i in 0..<8 {
                for bit in [1, 2, 4] where i & bit == 0 {
                    canvas.segment(corners[i], corners[i | bit], colour: colour)
                }
            }
        }
        return canvas.image
    }

    private func drawFocus(on canvas: inout PictureCanvas) {
        switch focus.state {
        case .hidden:
            return
        case .initializing:
            let k = camera.intrinsics
            let centre = SIMD2(Float(k.width - 1) / 2, Float(k.height - 1) / 2)
            let arm = Float(max(4, k.width / 40))
            canvas.line(centre - SIMD2(arm, 0), centre + SIMD2(arm, 0), colour: StreamPicture.initializingColour)
            canvas.line(centre - SIMD2(0, arm), centre + SIMD2(0, arm), colour: StreamPicture.initializingColour)
        case .estimated, .onPlane:
            guard let transform = focus.transform else { return }
            let h = StreamPicture.focusSide / 2
            let corners = [SIMD2<Float>(-h, -h), SIMD2(h, -h), SIMD2(h, h), SIMD2(-h, h)].map {
                transform.apply(toPoint: SIMD3($0.x, 0, $0.y))
            }
            let closed = focus.state == .onPlane
            let colour = closed ? StreamPicture.onPlaneColour : StreamPicture.estimatedColour
            for i in 0..<4 {
                let a = corners[i], b = corners[(i + 1) % 4]
                if closed {
                    canvas.segment(a, b, colour: colour)
                } else {
                    // Open brackets: a quarter of each side from either corner.
                    canvas.segment(a, a + (b - a) * 0.25, colour: colour)
                    canvas.segment(b, b + (a - b) * 0.25, colour: colour)
                }
            }
        }
    }
}

/// An RGB image to draw world segments and pixel lines on, through a pinhole camera.
struct PictureCanvas {
    var image: RGBImage
    let camera: PinholeCamera
    /// Segments are cut where they come nearer the camera than this (m).
    static let near: Float = 0.05

    init(image: RGBImage, camera: PinholeCamera) {
        self.image = image
        self.camera = camera
    }

    /// Draws the world segment `a`–`b`, cut to the part in front of the camera.
    mutating func segment(_ a: SIMD3<Float>, _ b: SIMD3<Float>, colour: SIMD3<UInt8>) {
        let toCamera = camera.pose.inverse
        var p = toCamera.apply(toPoint: a), q = toCamera.apply(toPoint: b)
        guard p.isFinite, q.isFinite, p.z >= PictureCanvas.near || q.z >= PictureCanvas.near else { return }
        if p.z < PictureCanvas.near { p = p + (q - p) * ((PictureCanvas.near - p.z) / (q.z - p.z)) }
        if q.z < PictureCanvas.near { q = q + (p - q) * ((PictureCanvas.near - q.z) / (p.z - q.z)) }
        guard let u = camera.intrinsics.project(p), let v = camera.intrinsics.project(q) else { return }
        line(u, v, colour: colour)
    }

    /// Draws the pixel line `a`–`b`, two pixels wide, cut to the image.
    mutating func line(_ a: SIMD2<Float>, _ b: SIMD2<Float>, colour: SIMD3<UInt8>) {
        guard let (from, to) = clip(a, b) else { return }
        let steps = Int(max(abs(to.x - from.x), abs(to.y - from.y)).rounded(.up))
        let width = image.width, height = image.height
        for k in 0...max(steps, 0) {
            let t = steps == 0 ? 0 : Float(k) / Float(steps)
            let p = from + (to - from) * t
            let u = Int(p.x.rounded()), v = Int(p.y.rounded())
            for (du, dv) in [(0, 0), (1, 0), (0, 1)] {
                let x = u + du, y = v + dv
                if x >= 0, x < width, y >= 0, y < height { image.pixels[y * width + x] = colour }
            }
        }
    }

    /// The part of `a`–`b` inside the image rectangle (Liang–Barsky), or `nil` when none is.
    private func clip(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> (SIMD2<Float>, SIMD2<Float>)? {
        guard a.isFinite, b.isFinite else { return nil }
        let d = b - a
        var t0: Float = 0, t1: Float = 1
        let lower = SIMD2<Float>(-0.5, -0.5), upper = SIMD2(Float(image.width) - 0.5, Float(image.height) - 0.5)
        for (p, q) in [(-d.x, a.x - lower.x), (d.x, upper.x - a.x), (-d.y, a.y - lower.y), (d.y, upper.y - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
                continue
            }
            let r = q / p
            if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            if t0 > t1 { return nil }
        }
        return (a + d * t0, a + d * t1)
    }
}
