import Testing
import PlaneKitGeometry
@testable import PlaneKitInput
import PlaneKitTestSupport
@testable import PlaneKitCloudIO

/// Reading PCL's own test data from ../shared/data/pcl (skipped when absent).
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/pcl beside the repository"))
struct RealDataTests {
    static let frames = ["frame_20121214T142255.814212", "frame_20121214T142256.068683", "frame_20121214T142256.332395"]

    @Test(arguments: zip(frames + ["milk_cartoon_all_small_clorox", "table_scene_mug_stereo_textured"],
                         [35625, 35805, 35872, 65793, 97920]))
    func organizedPCD(name: String, holes: Int) throws {
        let cloud = try PointCloudReader.read(path: SharedData.path("pcl/\(name).pcd"))
        #expect(cloud.width == 640 && cloud.height == 480 && cloud.isOrganized)
        #expect(cloud.count - cloud.finiteCount == holes)
        #expect(cloud.colors?.count == 307_200)
        #expect(!cloud.points[0].x.isFinite)  // top-left corner has no depth in every frame
    }

    @Test func pinnedValues() throws {
        let frame = try PointCloudReader.read(path: SharedData.path("pcl/\(Self.frames[0]).pcd"))
        #expect(frame[320, 240] == SIMD3<Float>(0, 0, Float(854) * 0.001))  // PCL computed 854 mm × 0.001 in float
        #expect(frame.colors?[153_600] == SIMD3(49, 47, 41))
        // VIEWPOINT 0 0 0 0 1 0 0: a half turn about X.
        #expect(frame.sensorPose.rotation.columns.1.y == -1 && frame.sensorPose.rotation.columns.2.z == -1)
        let mug = try PointCloudReader.read(path: SharedData.path("pcl/table_scene_mug_stereo_textured.pcd"))
        #expect(mug[320, 240] == SIMD3<Float>(0.00018884, 0.016286, 0.94408))
        #expect(mug.colors?[153_600] == SIMD3(192, 0, 0))
        let milk = try PointCloudReader.read(path: SharedData.path("pcl/milk_cartoon_all_small_clorox.pcd"))
        #expect(milk[320, 240].z == 0.812)
        #expect(milk.sensorPose == .identity)
    }

    /// FNV-1a over every coordinate's bits (NaN payloads included) and every colour byte.
    static func digest(_ cloud: PointCloud) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ value: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) { hash = (hash ^ UInt64(value >> UInt32(shift) & 0xFF)) &* 0x100_0000_01B3 }
        }
        for p in cloud.points { mix(p.x.bitPattern); mix(p.y.bitPattern); mix(p.z.bitPattern) }
        for c in cloud.colors ?? [] { mix(UInt32(c.x) << 16 | UInt32(c.y) << 8 | UInt32(c.z)) }
        return hash
    }

    /// Every bit of every real PCD as PCL 1.13's PCDReader read it (pinned when PlaneKit still
    /// read PCDs through PCL, so our own reader must reproduce PCL point for point).
    @Test(arguments: zip(frames + ["milk_cartoon_all_small_clorox", "table_scene_mug_stereo_textured", "sac_plane_test"],
                         [11_573_130_608_849_462_261, 5_264_841_424_580_945_889, 3_518_041_989_935_144_010,
                          18_235_324_290_275_725_341, 6_649_813_857_092_370_264, 2_041_978_044_209_327_103] as [UInt64]))
    func sameBitsAsPCL(name: String, digest: UInt64) throws {
        let cloud = try PointCloudReader.read(path: SharedData.path("pcl/\(name).pcd"))
        #expect(Self.digest(cloud) == digest)
    }

    @Test func unorganizedASCII() throws {
        let cloud = try PointCloudReader.read(path: SharedData.path("pcl/sac_plane_test.pcd"))
        #expect(cloud.width == 3283 && cloud.height == 1 && !cloud.isOrganized)
        #expect(cloud.finiteCount == 3283)
        #expect(cloud.colors == nil)
        #expect(cloud.points[0] == SIMD3<Float>(1.068, 0.094721, -0.016231))
        #expect(cloud.points[3282] == SIMD3<Float>(1.2798, -0.41073, -0.18623))
    }

    /// Independent cross-check: the Kinect PCDs and the TIFF depth images of the same frames,
    /// read by two unrelated code paths (the LZF PCD reader vs the PackBits TIFF decoder).
    @Test(arguments: zip(frames, [271_575, 271_395, 271_328]))
    func pcdMatchesTIFFDepth(name: String, valid: Int) throws {
        let cloud = try PointCloudReader.read(path: SharedData.path("pcl/\(name).pcd"))
        let tiffPath = SharedData.path("pcl/depth/\(name)_depth.tiff")
        let raw = try DepthImageReader.readRaw(path: tiffPath)
        #expect(raw.width == 640 && raw.height == 480 && raw.bitDepth == 16)
        var both = 0, agree = 0, onlyOne = 0
        for i in 0..<raw.samples.count {
            let z = cloud.points[i].z
            let hasDepth = raw.samples[i] > 0
            if z.isFinite && hasDepth {
                both += 1
                if abs(z - Float(raw.samples[i]) * 0.001) <= 0.001 { agree += 1 }
            } else if z.isFinite || hasDepth {
                onlyOne += 1
            }
        }
        #expect(both == valid)
        #expect(agree == valid)
        #expect(onlyOne == 0)

        // The sidecar XML gives fx = fy = 525, (320, 240), factor 0.001; unprojecting the TIFF
        // reproduces PCL's x and y too.
        let fromImage = try PointCloudReader.read(path: tiffPath)
        #expect(fromImage.intrinsics == PinholeIntrinsics(fx: 525, fy: 525, cx: 320, cy: 240, width: 640, height: 480))
        #expect(fromImage.finiteCount == valid)
        var xyAgree = 0
        for i in 0..<fromImage.count where fromImage.points[i].isFinite && cloud.points[i].isFinite {
            let d = fromImage.points[i] - cloud.points[i]
            if abs(d.x) <= 0.001 && abs(d.y) <= 0.001 && abs(d.z) <= 0.001 { xyAgree += 1 }
        }
        #expect(xyAgree == valid)
    }

    @Test func depthImageWithoutSidecarNeedsIntrinsics() throws {
        let bytes = try FileBytes.read(SharedData.path("pcl/depth/\(Self.frames[0])_depth.tiff"))
        let path = try TestFiles.write(bytes, name: "lonely_depth.tiff")
        #expect {
            try PointCloudReader.read(path: path)
        } throws: { ($0 as? InputError)?.problem.contains("lonely.xml") == true }
        let k = PinholeIntrinsics.kinect()
        let cloud = try PointCloudReader.read(path: path, options: ReadOptions(intrinsics: k, depthScale: 0.002))
        #expect(cloud[320, 240].z == Float(854) * 0.002)
        #expect(cloud.intrinsics == k)
    }
}
