import Testing
import Foundation
import PlaneKitGeometry
@testable import PlaneKitInput
import PlaneKitTestSupport
@testable import PlaneKitCloudIO

struct DepthImageTests {
    /// A 4×3 depth image in millimetres with two holes.
    static let raw: ContiguousArray<UInt16> = [1000, 0, 1200, 1300, 900, 950, 0, 1000, 2000, 2100, 2200, 2300]

    @Test func pointCloudUnprojectsAndMarksHoles() throws {
        let image = DepthImage(try GrayImage(width: 4, height: 3, samples: Self.raw), scale: 0.001)
        #expect(image[2, 0] == Float(1200) * 0.001 && image[1, 0] == 0)
        let k = try #require(PinholeIntrinsics(fx: 500, fy: 400, cx: 1.5, cy: 1, width: 4, height: 3))
        let cloud = image.pointCloud(intrinsics: k)
        #expect(cloud.width == 4 && cloud.height == 3 && cloud.intrinsics == k)
        #expect(cloud.finiteCount == 10 && cloud[1, 0].x.isNaN && cloud[2, 1].z.isNaN)
        let z = Float(2300) * 0.001
        #expect(cloud[3, 2] == SIMD3((3 - 1.5) / 500 * z, (2 - 1) / 400 * z, z))
        #expect(cloud[0, 1] == SIMD3((0 - 1.5) / 500 * (Float(900) * 0.001), 0, Float(900) * 0.001))
    }

    /// Four pixels at a time, then the rest of the row one by one: every width gives each pixel
    /// the per-pixel formula's exact point, and NaN for 0, ∞ and NaN depths wherever they fall.
    @Test func everyPixelUnprojectsAlikeWhateverTheWidth() throws {
        for width in [1, 3, 4, 5, 7, 9, 13] {
            let height = 3
            var image = try DepthImage(width: width, height: height,
                                       depths: ContiguousArray((0..<(width * height)).map { Float($0 % 5) * 0.7 }))
            if width > 4 { image.depths[width + 1] = .infinity; image.depths[2 * width - 1] = .nan }
            let k = try #require(PinholeIntrinsics(fx: 300, fy: 310, cx: Float(width) / 2, cy: 1, width: width, height: height))
            let cloud = image.pointCloud(intrinsics: k)
            var valid = 0
            for v in 0..<height {
                for u in 0..<width {
                    let z = image[u, v], point = cloud[u, v]
                    if z > 0 && z.isFinite {
                        valid += 1
                        #expect(point == SIMD3((Float(u) - k.cx) / k.fx * z, (Float(v) - k.cy) / k.fy * z, z), "width \(width) pixel (\(u), \(v))")
                    } else {
                        #expect(point.x.isNaN && point.y.isNaN && point.z.isNaN, "width \(width) pixel (\(u), \(v)): \(point)")
                    }
                }
            }
            #expect(cloud.finiteCount == valid, "width \(width)")
            #expect(valid < width * height)
        }
    }

    @Test func jsonSidecarBesidePNG() throws {
        let directory = try SharedData.temporaryDirectory("planekit-input")
        let image = try GrayImage(width: 4, height: 3, samples: Self.raw)
        let path = directory.appendingPathComponent("room_depth.png").path
        try PNGWriter.write(image, to: path)
        try Data(#"{"fx": 500, "fy": 510, "cx": 2, "cy": 1, "depthScale": 0.0002}"#.utf8)
            .write(to: directory.appendingPathComponent("room.json"))
        let cloud = try PointCloudReader.read(path: path)
        #expect(cloud.intrinsics == PinholeIntrinsics(fx: 500, fy: 510, cx: 2, cy: 1, width: 4, height: 3))
        let z = Float(2000) * 0.0002
        #expect(cloud[0, 2] == SIMD3(-2 / 500 * z, 1 / 510 * z, z))
        // The caller's scale and intrinsics win over the sidecar's.
        let k = PinholeIntrinsics.kinect(width: 4, height: 3)
        let overridden = try PointCloudReader.read(path: path, options: ReadOptions(intrinsics: k, depthScale: 0.001))
        #expect(overridden.intrinsics == k && overridden[0, 2].z == 2)
        // The caller's focal lengths and principal point are used; the size is the image's.
        let resized = try PointCloudReader.read(path: path, options: ReadOptions(intrinsics: .kinect()))
        #expect(resized.intrinsics == PinholeIntrinsics(fx: 525, fy: 525, cx: 319.5, cy: 239.5, width: 4, height: 3))
        #expect(cloud.sensorPose == .identity)
    }

    @Test func jsonSidecarPoseBecomesTheSensorPose() throws {
        let directory = try SharedData.temporaryDirectory("planekit-input")
        let path = directory.appendingPathComponent("posed.png").path
        try PNGWriter.write(try GrayImage(width: 4, height: 3, samples: Self.raw), to: path)
        // A camera 1.5 m up, rotated 90° about +Y: its X axis is world −Z, its Z axis world +X.
        let sidecar = #"{"fx": 500, "fy": 500, "cx": 2, "cy": 1, "pose": [0,0,-1,0, 0,1,0,0, 1,0,0,0, 0,1.5,0,1]}"#
        try Data(sidecar.utf8).write(to: directory.appendingPathComponent("posed.json"))
        let cloud = try PointCloudReader.read(path: path)
        #expect(cloud.sensorPose.translation == SIMD3(0, 1.5, 0))
        #expect(cloud.sensorPose.apply(toDirection: SIMD3(1, 0, 0)) == SIMD3(0, 0, -1))
        // World +Y up seen from this camera is its own +Y.
        #expect(cloud.defaultUp == SIMD3(0, 1, 0))
        // A pose that is not rigid is refused with the sidecar named.
        try Data(#"{"fx": 500, "fy": 500, "cx": 2, "cy": 1, "pose": [2,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}"#.utf8)
            .write(to: directory.appendingPathComponent("posed.json"))
        let error = readError(path)
        #expect(error?.source.hasSuffix("posed.json") == true && error?.problem.contains("rigid") == true)
    }

    @Test func xmlSidecarNamedLikeTheImageBesidePGM() throws {
        let directory = try SharedData.temporaryDirectory("planekit-input")
        let path = directory.appendingPathComponent("scan_depth.pgm").path
        try PGMWriter.write(try GrayImage(width: 4, height: 3, samples: Self.raw), to: path)
        let xml = """
        <?xml version="1.0"?>
        <!-- sensor: <rgb> comes first -->
        <camera model="test &amp; co">
          <rgb><focal_length_x>1</focal_length_x></rgb>
          <depth units='mm'>
            <focal_length_x> 600 </focal_length_x><focal_length_y>610</focal_length_y>
            <principal_point_x><![CDATA[1.5]]></principal_point_x>
            <principal_point_y>1</principal_point_y>
            <note/>
          </depth>
        </camera>
        """
        try Data(xml.utf8).write(to: directory.appendingPathComponent("scan_depth.xml"))
        let cloud = try PointCloudReader.read(path: path)
        #expect(cloud.intrinsics == PinholeIntrinsics(fx: 600, fy: 610, cx: 1.5, cy: 1, width: 4, height: 3))
        #expect(cloud[3, 2].z == Float(2300) * 0.001)  // no z factor: the default scale
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data/pcl"))
    func realSidecar() throws {
        let sidecar = try CameraSidecar.read(path: SharedData.path("pcl/depth/frame_20121214T142255.814212.xml"))
        #expect(sidecar.fx == 525 && sidecar.fy == 525 && sidecar.cx == 320 && sidecar.cy == 240 && sidecar.depthScale == 0.001)
        let found = try CameraSidecar.find(besideImage: SharedData.path("pcl/depth/frame_20121214T142255.814212_depth.tiff"))
        #expect(found == sidecar)
    }

    @Test func badSidecars() throws {
        func problem(_ text: String, _ ext: String) throws -> String? {
            let path = try TestFiles.write(Array(text.utf8), name: "cam.\(ext)")
            do { _ = try CameraSidecar.read(path: path); return nil } catch { return error.problem }
        }
        #expect(try problem("<rgb><focal_length_x>5</focal_length_x></rgb>", "xml") == "no <depth> section")
        #expect(try problem("<depth><focal_length_x>5</focal_length_x>", "xml")?.contains("never closed") == true)
        #expect(try problem("<depth><focal_length_x>abc</focal_length_x></depth>", "xml")?.contains("not a finite number") == true)
        #expect(try problem("<depth><focal_length_x>5</focal_length_x></depth>", "xml") == "<depth> has no <focal_length_y>")
        #expect(try problem(#"{"fx": 1, "fy": 1, "cx": 0}"#, "json") == #"missing "cy""#)
        #expect(try problem(#"{"fx": "a"}"#, "json") == #""fx" is not a finite number"#)
        #expect(try problem("{", "json")?.hasPrefix("not valid JSON") == true)
        #expect(try problem(#"{"fx": 1, "fy": 1, "cx": 0, "cy": 0, "t": "soon"}"#, "json") == #""t" is not a finite number"#)
    }

    /// Nesting is bounded before the tree is built: 64 elements deep for XML (MiniXML), and
    /// 64 for JSON (JSONParser); 100 000 levels are one clear error, not a stack overflow.
    @Test func deeplyNestedSidecarsAreRefused() throws {
        func problem(_ text: String, _ ext: String) throws -> String? {
            let path = try TestFiles.write(Array(text.utf8), name: "deep.\(ext)")
            do { _ = try CameraSidecar.read(path: path); return nil } catch { return error.problem }
        }
        let depth = "<depth><focal_length_x>5</focal_length_x><focal_length_y>5</focal_length_y></depth>"
        func wrapped(_ levels: Int, _ inner: String) -> String {
            String(repeating: "<a>", count: levels) + inner + String(repeating: "</a>", count: levels)
        }
        #expect(try problem(wrapped(100_000, ""), "xml") == "XML: elements nested more than 64 deep")
        // 63 levels, <depth> and <focal_length_x> are 65 deep; with 62 they are 64: parsed, and
        // the sidecar's own check comes next.
        #expect(try problem(wrapped(63, depth), "xml") == "XML: elements nested more than 64 deep")
        let parsed = try problem(wrapped(62, depth), "xml")
        #expect(parsed == "<depth> has no <principal_point_x>", "\(parsed ?? "no problem")")
        #expect(try problem(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000), "json")?
            .hasPrefix("not valid JSON") == true)
    }

    @Test func jsonSidecarTime() throws {
        let timed = try TestFiles.write(Array(#"{"fx": 525, "fy": 525, "cx": 319.5, "cy": 239.5, "t": 0.7333333333333333}"#.utf8),
                                        name: "timed.json")
        #expect(try CameraSidecar.read(path: timed).timestamp == 0.7333333333333333)
        let untimed = try TestFiles.write(Array(#"{"fx": 525, "fy": 525, "cx": 319.5, "cy": 239.5}"#.utf8), name: "untimed.json")
        #expect(try CameraSidecar.read(path: untimed).timestamp == nil)
    }

    @Test func formatByMagicThenExtension() throws {
        let png = PNGWriter.encode(try GrayImage(width: 4, height: 3, samples: Self.raw))
        let misnamed = try TestFiles.write(png, name: "really_a_png.tiff")
        #expect(try PointCloudReader.format(ofPath: misnamed) == .png)
        let cloud = try PointCloudReader.read(path: misnamed, options: ReadOptions(intrinsics: .kinect(width: 4, height: 3)))
        #expect(cloud.finiteCount == 10)
        let unknown = try TestFiles.write(Array("1 2 3\n".utf8), name: "points.dat")
        #expect(readError(unknown)?.problem.contains("unknown format") == true)
        #expect(try PointCloudReader.format(ofPath: TestFiles.write(Array("1 2 3\n".utf8), name: "p.TXT")) == .xyz)
        let truncatedPGM = try TestFiles.write(Array("P5\n4 3\n65535\n".utf8) + [1, 2, 3], name: "t.pgm")
        #expect(readError(truncatedPGM, options: ReadOptions(intrinsics: .kinect(width: 4, height: 3)))?.problem.contains("truncated") == true)
    }
}

struct EstimatedIntrinsicsTests {
    /// A tilted plane seen through known intrinsics gives them back from its points alone.
    @Test func recoversTheCameraFromAnOrganizedCloud() throws {
        let k = try #require(PinholeIntrinsics(fx: 570, fy: 560, cx: 321.5, cy: 238, width: 64, height: 48))
        var points = ContiguousArray<SIMD3<Float>>()
        for v in 0..<48 {
            for u in 0..<64 {
                // Holes in one corner; depth rises to the right.
                points.append(u < 8 && v < 8 ? SIMD3(repeating: .nan) : k.unproject(u: Float(u), v: Float(v), depth: 1.5 + Float(u) * 0.01))
            }
        }
        let cloud = try PointCloud(width: 64, height: 48, points: points)
        let estimate = try #require(cloud.estimatedIntrinsics(step: 2))
        #expect(abs(estimate.fx - 570) < 0.01 && abs(estimate.fy - 560) < 0.01)
        #expect(abs(estimate.cx - 321.5) < 0.01 && abs(estimate.cy - 238) < 0.01)
        #expect(estimate.width == 64 && estimate.height == 48)
        // No layout, or no valid point: nothing to fit.
        #expect(PointCloud(unorganized: points).estimatedIntrinsics() == nil)
        let empty = try PointCloud(width: 4, height: 2, points: ContiguousArray(repeating: SIMD3(repeating: .nan), count: 8))
        #expect(empty.estimatedIntrinsics() == nil)
    }

    /// PCL's Kinect frame was taken with fx = fy = 525 and the centre at (320, 240) (its XML).
    @Test(.enabled(if: SharedData.isAvailable)) func kinectFrameGivesItsFocalLength() throws {
        let cloud = try PointCloudReader.read(path: SharedData.path("pcl/frame_20121214T142255.814212.pcd"))
        let estimate = try #require(cloud.estimatedIntrinsics())
        #expect(abs(estimate.fx - 525) < 1 && abs(estimate.fy - 525) < 1)
        #expect(abs(estimate.cx - 320) < 1 && abs(estimate.cy - 240) < 1)
    }
}
