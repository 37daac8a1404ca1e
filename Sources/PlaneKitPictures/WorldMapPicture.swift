import PlaneKitGeometry
import PlaneKitInput
import PlaneKitMaps

/// A top-down picture of a `WorldMap` (looking down −Y, world +X to the right, +Z down the
/// image): the sampled points in grey (brighter is higher), every anchor's covered ground in
/// its identifier's colour (the colours of `stream --png-dir`), horizontal ones filled and the
/// outlines of all drawn, the keyframes' camera positions as small white crosses, and placed
/// objects as the white outline of their footprint.
public struct WorldMapPicture: Sendable {
    /// The map drawn.
    public let map: WorldMap
    /// Pixels per metre.
    public let scale: Float
    /// The picture's size is the map's extent at ``scale`` plus this margin on each side (pixels).
    public static let margin = 10
    /// The largest side of a picture (pixels); the scale shrinks to fit.
    public static let maximumSide = 4096

    /// A picture of `map` at `pixelsPerMetre` (reduced so no side exceeds ``maximumSide``).
    public init(map: WorldMap, pixelsPerMetre: Float = 100) {
        self.map = map
        let extent = map.extent
        let largest = max(extent.x, extent.z, 0.01)
        scale = min(max(pixelsPerMetre, 1), Float(WorldMapPicture.maximumSide - 2 * WorldMapPicture.margin) / largest)
    }

    /// The picture.
    public func image() throws(InputError) -> RGBImage {
        let bounds = map.bounds ?? AxisAlignedBox(minimum: .zero, maximum: .zero)
        let margin = Float(WorldMapPicture.margin)
        let width = Int(((bounds.maximum.x - bounds.minimum.x) * scale).rounded(.up)) + 2 * WorldMapPicture.margin
        let height = Int(((bounds.maximum.z - bounds.minimum.z) * scale).rounded(.up)) + 2 * WorldMapPicture.margin
        func pixel(_ p: SIMD3<Float>) -> SIMD2<Float> {
            SIMD2((p.x - bounds.minimum.x) * scale + margin, (p.z - bounds.minimum.z) * scale + margin)
        }
        var pixels = ContiguousArray(repeating: SIMD3<UInt8>(0, 0, 0), count: width * height)
        func put(_ q: SIMD2<Float>, _ colour: SIMD3<UInt8>) {
            let u = Int(q.x), v = Int(q.y)
            if u >= 0, v >= 0, u < width, v < height { pixels[v * width + u] = colour }
        }
        let span = max(bounds.maximum.y - bounds.minimum.y, 0.01)
        for p in map.points {
            let grey = UInt8(60 + 140 * max(0, min(1, (p.y - bounds.minimum.y) / span)))
            put(pixel(p), SIMD3(repeating: grey))
        }
        for anchor in map.anchors {
            let colour = SIMD3<UInt8>(SegmentationPicture.colour(key: anchor.identifier.rawValue) * 255)
            let horizontal = abs(anchor.plane.plane.normal.y) > 0.9
            let frame = anchor.gridFrame
            for run in anchor.cellRuns where horizontal {
                for k in 0..<Int(run.count) {
                    let g = (SIMD2<Float>(Float(Int(run.column) + k), Float(run.row)) + 0.5) * anchor.cellSize
                    let world = frame.translation + g.x * frame.xAxis + g.y * frame.zAxis
                    // Fill the cell's square, not just its centre, so the ground reads as an area.
                    let c = pixel(world), half = max(0.5, anchor.cellSize * scale / 2)
                    var dv = -half
                    while dv < half {
                        var du = -half
                        while du < half {
                            put(c + SIMD2(du, dv), colour / 2 &+ SIMD3(repeating: 40))
                            du += 1
                        }
                        dv += 1
                    }
                }
            }
        }
        var canvas = PictureCanvas(image: try RGBImage(width: width, height: height, pixels: pixels),
                                   camera: PinholeCamera(intrinsics: .kinect()))
        for anchor in map.anchors {
            let colour = SIMD3<UInt8>(SegmentationPicture.colour(key: anchor.identifier.rawValue) * 255)
            let outline = anchor.plane.boundary.vertices.map { anchor.plane.transform.apply(toPoint: SIMD3($0.x, 0, $0.y)) }
            for (k, a) in outline.enumerated() { canvas.line(pixel(a), pixel(outline[(k + 1) % outline.count]), colour: colour) }
        }
        for pose in map.keyframes {
            let c = pixel(pose.translation)
            canvas.line(c - SIMD2(3, 0), c + SIMD2(3, 0), colour: SIMD3(255, 255, 255))
            canvas.line(c - SIMD2(0, 3), c + SIMD2(0, 3), colour: SIMD3(255, 255, 255))
        }
        for object in map.objects {
            let t = object.transform, h = object.size / 2
            let corners = [SIMD3(-h.x, 0, -h.z), SIMD3(h.x, 0, -h.z), SIMD3(h.x, 0, h.z), SIMD3(-h.x, 0, h.z)].map(t.apply(toPoint:))
            for k in 0..<4 { canvas.line(pixel(corners[k]), pixel(corners[(k + 1) % 4]), colour: SIMD3(255, 255, 255)) }
        }
        return canvas.image
    }
}
