extension ViewPage {
    /// The page's script: applies the messages of `docs/view.md` to a three.js scene. Plane
    /// colours follow `SegmentationPicture.colour(key:)`, so a surface has the same colour here
    /// as in `stream --png-dir` pictures.
    static let script = #"""
    'use strict';
    (function () {
      if (typeof THREE === 'undefined') {
        document.getElementById('error').textContent =
          'three.js did not load: install Debian\'s libjs-three (scripts/install-deps.sh) and restart planekit view';
        return;
      }
      const statusBox = document.getElementById('status');
      const legendBox = document.getElementById('legend');
      const labelLayer = document.getElementById('labels');

      const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
      renderer.setPixelRatio(window.devicePixelRatio || 1);
      renderer.setSize(window.innerWidth, window.innerHeight);
      renderer.setClearColor(0x15171c);
      document.body.appendChild(renderer.domElement);

      const scene = new THREE.Scene();
      const camera = new THREE.PerspectiveCamera(50, window.innerWidth / window.innerHeight, 0.02, 500);
      camera.position.set(0, 3, -4);
      const controls = new THREE.OrbitControls(camera, renderer.domElement);
      controls.target.set(0, 0, 2);
      let userMoved = false;
      controls.addEventListener('start', () => { userMoved = true; });
      controls.addEventListener('change', () => { dirty = true; });

      // The session's state as drawn.
      const world = {
        frame: -1, timestamp: 0, mapping: 'notAvailable', ended: false, connected: false,
        planes: new Map(),   // identifier -> { group, label, data }
        objects: new Map(),  // identifier -> { group, data }
        participants: new Map(),  // peer name -> { group, label, trail, positions, colour }
        pointers: new Map(),      // peer name -> { line, dot }
        path: [], cameraForward: null,
      };
      let dirty = true;

      // SegmentationPicture.colour(key:), in 32-bit floats like the Swift code.
      function planeColour(key) {
        const f = Math.fround;
        let hue = f(f(key % 1000003) * f(0.618034));
        hue = f(hue - Math.floor(hue));
        const sector = f(hue * 6);
        const x = f(sector - Math.floor(sector));
        const p = 0.25, q = f(1 - f(0.75 * x)), t = f(0.25 + f(0.75 * x));
        const rgb = [[1, t, p], [q, 1, p], [p, 1, t], [p, q, 1], [t, p, 1], [1, p, q]][Math.floor(sector) % 6];
        return new THREE.Color(rgb[0], rgb[1], rgb[2]);
      }
      function keyOf(identifier) { return Number(String(identifier).replace(/^[a-z]+-/, '')); }
      function matrixOf(transform) { return new THREE.Matrix4().fromArray(transform.columnMajor); }
      function place(object3d, transform) {
        object3d.matrixAutoUpdate = false;
        object3d.matrix.copy(matrixOf(transform));
        object3d.matrixWorldNeedsUpdate = true;
      }
      function dispose(object3d) {
        object3d.traverse((o) => {
          if (o.geometry) o.geometry.dispose();
          if (o.material) o.material.dispose();
        });
      }

      // MARK: planes — outline and a translucent fill seen from the side the sensor saw it from.
      function planeGroup(description, colour) {
        const group = new THREE.Group();
        const vertices = description.boundary.vertices;
        if (vertices.length >= 3) {
          const outline = new THREE.BufferGeometry();
          outline.setAttribute('position', new THREE.Float32BufferAttribute(
            vertices.flatMap((v) => [v[0], 0, v[1]]), 3));
          group.add(new THREE.LineLoop(outline, new THREE.LineBasicMaterial({ color: colour })));
          const contour = vertices.map((v) => new THREE.Vector2(v[0], v[1]));
          const triangles = THREE.ShapeUtils.triangulateShape(contour, []);
          const positions = [];
          for (const [a, b, c] of triangles) {
            // Wind every triangle so its front faces local +Y, the side the sensor saw.
            const [pa, pb, pc] = [vertices[a], vertices[b], vertices[c]];
            const cross = (pb[1] - pa[1]) * (pc[0] - pa[0]) - (pb[0] - pa[0]) * (pc[1] - pa[1]);
            const order = cross >= 0 ? [pa, pb, pc] : [pa, pc, pb];
            for (const v of order) positions.push(v[0], 0, v[1]);
          }
          const fill = new THREE.BufferGeometry();
          fill.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
          group.add(new THREE.Mesh(fill, new THREE.MeshBasicMaterial({
            color: colour, transparent: true, opacity: 0.55, side: THREE.FrontSide, depthWrite: false,
          })));
        }
        place(group, description.transform);
        return group;
      }
      function setPlane(anchor) {
        removePlane(anchor.identifier);
        const colour = planeColour(keyOf(anchor.identifier));
        const group = planeGroup(anchor.plane, colour);
        scene.add(group);
        const label = document.createElement('div');
        label.textContent = anchor.plane.classification === 'none'
          ? anchor.identifier : anchor.plane.classification + ' · ' + anchor.identifier;
        labelLayer.appendChild(label);
        world.planes.set(anchor.identifier, { group, label, data: anchor, colour });
      }
      function removePlane(identifier) {
        const old = world.planes.get(identifier);
        if (!old) return;
        scene.remove(old.group);
        dispose(old.group);
        old.label.remove();
        world.planes.delete(identifier);
      }

      // MARK: objects — boxes standing on their anchor (the centre of the bottom face).
      function setObject(object) {
        removeObject(object.identifier);
        const [w, h, d] = object.size;
        const box = new THREE.BoxBufferGeometry(w, h, d);
        box.translate(0, h / 2, 0);
        const colour = object.snap ? 0xff00ff : 0xffffff;
        const group = new THREE.Group();
        group.add(new THREE.LineSegments(new THREE.EdgesGeometry(box), new THREE.LineBasicMaterial({ color: colour })));
        group.add(new THREE.Mesh(box, new THREE.MeshBasicMaterial({ color: colour, transparent: true, opacity: 0.25, depthWrite: false })));
        place(group, object.transform);
        scene.add(group);
        world.objects.set(object.identifier, { group, data: object });
      }
      function removeObject(identifier) {
        const old = world.objects.get(identifier);
        if (!old) return;
        scene.remove(old.group);
        dispose(old.group);
        world.objects.delete(identifier);
      }

      // MARK: focus indicator — a 25 cm square: closed and yellow on a plane, orange corners on
      // an estimated surface, nothing while initializing or hidden.
      const focusSide = 0.25;
      const focusSquare = (() => {
        const h = focusSide / 2;
        const g = new THREE.BufferGeometry();
        g.setAttribute('position', new THREE.Float32BufferAttribute([-h, 0, -h, h, 0, -h, h, 0, h, -h, 0, h], 3));
        return new THREE.LineLoop(g, new THREE.LineBasicMaterial({ color: 0xffdc00 }));
      })();
      const focusCorners = (() => {
        const h = focusSide / 2, k = focusSide / 5, v = [];
        for (const [sx, sz] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
          v.push(sx * h, 0, sz * h, sx * (h - k), 0, sz * h, sx * h, 0, sz * h, sx * h, 0, sz * (h - k));
        }
        const g = new THREE.BufferGeometry();
        g.setAttribute('position', new THREE.Float32BufferAttribute(v, 3));
        return new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: 0xff8c00 }));
      })();
      focusSquare.visible = focusCorners.visible = false;
      scene.add(focusSquare, focusCorners);
      function setFocus(event) {
        focusSquare.visible = event.state === 'onPlane' && !!event.transform;
        focusCorners.visible = event.state === 'estimated' && !!event.transform;
        if (event.transform) { place(focusSquare, event.transform); place(focusCorners, event.transform); }
      }

      // MARK: the camera — its path and a small frustum where it is now (+Z forward, +Y down).
      let pathCapacity = 4096;
      let pathPositions = new Float32Array(pathCapacity * 3);
      const pathGeometry = new THREE.BufferGeometry();
      pathGeometry.setAttribute('position', new THREE.BufferAttribute(pathPositions, 3));
      pathGeometry.setDrawRange(0, 0);
      const pathLine = new THREE.Line(pathGeometry, new THREE.LineBasicMaterial({ color: 0x4fc3f7 }));
      pathLine.frustumCulled = false;
      scene.add(pathLine);
      function setPath(positions) {
        world.path = positions.slice();
        if (positions.length > pathCapacity) {
          pathCapacity = positions.length * 2;
          pathPositions = new Float32Array(pathCapacity * 3);
          pathGeometry.setAttribute('position', new THREE.BufferAttribute(pathPositions, 3));
        }
        positions.forEach((p, i) => pathPositions.set(p, i * 3));
        pathGeometry.attributes.position.needsUpdate = true;
        pathGeometry.setDrawRange(0, positions.length);
      }
      function appendPath(position) {
        if (world.path.length >= pathCapacity) { setPath(world.path.concat([position])); return; }
        pathPositions.set(position, world.path.length * 3);
        world.path.push(position);
        pathGeometry.attributes.position.needsUpdate = true;
        pathGeometry.setDrawRange(0, world.path.length);
      }
      const frustum = (() => {
        const w = 0.1, h = 0.075, z = 0.15, v = [];
        const corners = [[-w, -h], [w, -h], [w, h], [-w, h]];
        corners.forEach(([x, y], i) => {
          const [nx, ny] = corners[(i + 1) % 4];
          v.push(0, 0, 0, x, y, z, x, y, z, nx, ny, z);
        });
        v.push(-w / 3, -h, z, 0, -h * 1.6, z, 0, -h * 1.6, z, w / 3, -h, z);  // the "up" notch
        const g = new THREE.BufferGeometry();
        g.setAttribute('position', new THREE.Float32BufferAttribute(v, 3));
        return new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: 0x4fc3f7 }));
      })();
      frustum.visible = false;
      scene.add(frustum);
      function setCamera(event) {
        place(frustum, event.transform);
        frustum.visible = true;
        const m = event.transform.columnMajor;
        const position = [m[12], m[13], m[14]];
        const last = world.path[world.path.length - 1];
        if (!last || last[0] !== position[0] || last[1] !== position[1] || last[2] !== position[2]) {
          appendPath(position);
        }
        world.cameraForward = new THREE.Vector3(m[8], m[9], m[10]);
      }

      // MARK: a shared space's other peers — each camera a frustum in the peer's own colour with
      // its name and a short trail; each pointer a ray to what it hits (3 m when it hits nothing).
      function peerColour(name) {
        let h = 2166136261;
        for (let i = 0; i < name.length; i++) { h ^= name.charCodeAt(i); h = Math.imul(h, 16777619); }
        return new THREE.Color().setHSL(((h >>> 0) % 360) / 360, 0.85, 0.6);
      }
      const trailLength = 90;
      function participantOf(name) {
        let p = world.participants.get(name);
        if (p) return p;
        const colour = peerColour(name);
        const w = 0.16, h = 0.12, z = 0.24, apex = [0, 0, 0];
        const corners = [[-w, -h, z], [w, -h, z], [w, h, z], [-w, h, z]];
        const edges = [], faces = [];
        corners.forEach((c, i) => {
          const n = corners[(i + 1) % 4];
          edges.push(...apex, ...c, ...c, ...n);
          faces.push(...apex, ...c, ...n);
        });
        const group = new THREE.Group();
        const lines = new THREE.BufferGeometry();
        lines.setAttribute('position', new THREE.Float32BufferAttribute(edges, 3));
        group.add(new THREE.LineSegments(lines, new THREE.LineBasicMaterial({ color: colour })));
        const sides = new THREE.BufferGeometry();
        sides.setAttribute('position', new THREE.Float32BufferAttribute(faces, 3));
        group.add(new THREE.Mesh(sides, new THREE.MeshBasicMaterial({ color: colour, transparent: true, opacity: 0.6, side: THREE.DoubleSide, depthWrite: false })));
        scene.add(group);
        const positions = new Float32Array(trailLength * 3);
        const trailGeometry = new THREE.BufferGeometry();
        trailGeometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
        trailGeometry.setDrawRange(0, 0);
        const trail = new THREE.Line(trailGeometry, new THREE.LineBasicMaterial({ color: colour, transparent: true, opacity: 0.7 }));
        trail.frustumCulled = false;
        scene.add(trail);
        const label = document.createElement('div');
        label.textContent = name;
        label.style.color = '#' + colour.getHexString();
        labelLayer.appendChild(label);
        p = { group, label, trail, positions, count: 0, colour };
        world.participants.set(name, p);
        return p;
      }
      function setParticipant(event) {
        const p = participantOf(event.peer);
        place(p.group, event.transform);
        const m = event.transform.columnMajor;
        // The newest position last; the oldest drops off once the trail is full.
        if (p.count === trailLength) p.positions.copyWithin(0, 3); else p.count++;
        p.positions.set([m[12], m[13], m[14]], (p.count - 1) * 3);
        p.trail.geometry.attributes.position.needsUpdate = true;
        p.trail.geometry.setDrawRange(0, p.count);
      }
      function setPointer(event) {
        removePointer(event.peer);
        const o = event.origin, d = new THREE.Vector3().fromArray(event.direction).normalize();
        const hit = (event.hits || [])[0];
        const end = hit && hit.worldTransform
          ? new THREE.Vector3(hit.worldTransform[12], hit.worldTransform[13], hit.worldTransform[14])
          : new THREE.Vector3().fromArray(o).addScaledVector(d, 3);
        const colour = peerColour(event.peer);
        const geometry = new THREE.BufferGeometry();
        geometry.setAttribute('position', new THREE.Float32BufferAttribute([o[0], o[1], o[2], end.x, end.y, end.z], 3));
        const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color: colour }));
        const dot = new THREE.Mesh(new THREE.SphereBufferGeometry(hit ? 0.04 : 0.02, 12, 8), new THREE.MeshBasicMaterial({ color: colour }));
        dot.position.copy(end);
        scene.add(line, dot);
        world.pointers.set(event.peer, { line, dot });
      }
      function removePointer(name) {
        const old = world.pointers.get(name);
        if (!old) return;
        for (const o of [old.line, old.dot]) { scene.remove(o); dispose(o); }
        world.pointers.delete(name);
      }
      function removePeer(name) {
        removePointer(name);
        const old = world.participants.get(name);
        if (!old) return;
        for (const o of [old.group, old.trail]) { scene.remove(o); dispose(o); }
        old.label.remove();
        world.participants.delete(name);
      }

      // MARK: depth points, greys by height so they never look like a plane's colour.
      const pointsGeometry = new THREE.BufferGeometry();
      const points = new THREE.Points(pointsGeometry, new THREE.PointsMaterial({ size: 0.018, vertexColors: THREE.VertexColors }));
      points.frustumCulled = false;
      scene.add(points);
      function setPoints(event) {
        const mm = event.millimetres, n = mm.length / 3;
        const positions = new Float32Array(mm.length), colours = new Float32Array(mm.length);
        let low = Infinity, high = -Infinity;
        for (let i = 0; i < n; i++) {
          const y = mm[3 * i + 1] / 1000;
          if (y < low) low = y;
          if (y > high) high = y;
        }
        const span = Math.max(high - low, 1e-3);
        for (let i = 0; i < n; i++) {
          positions[3 * i] = mm[3 * i] / 1000;
          positions[3 * i + 1] = mm[3 * i + 1] / 1000;
          positions[3 * i + 2] = mm[3 * i + 2] / 1000;
          const g = 0.35 + 0.5 * (positions[3 * i + 1] - low) / span;
          colours[3 * i] = colours[3 * i + 1] = colours[3 * i + 2] = g;
        }
        pointsGeometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
        pointsGeometry.setAttribute('color', new THREE.BufferAttribute(colours, 3));
      }

      function reset() {
        for (const id of Array.from(world.planes.keys())) removePlane(id);
        for (const id of Array.from(world.objects.keys())) removeObject(id);
        for (const name of new Set([...world.participants.keys(), ...world.pointers.keys()])) removePeer(name);
        setPath([]);
        focusSquare.visible = focusCorners.visible = frustum.visible = false;
        pointsGeometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(0), 3));
        pointsGeometry.setAttribute('color', new THREE.BufferAttribute(new Float32Array(0), 3));
        world.mapping = 'notAvailable';
        world.ended = false;
      }

      function apply(event) {
        if (typeof event.frame === 'number' && event.frame > world.frame) {
          world.frame = event.frame;
          world.timestamp = event.timestamp;
        }
        // A pointer event may name its kind in `type`.
        switch (event.event || event.type) {
          case 'reset': reset(); world.frame = event.frame; world.timestamp = event.timestamp; break;
          case 'path': setPath(event.positions); break;
          case 'planeAdded': case 'planeUpdated': setPlane(event.plane); break;
          case 'planeRemoved': removePlane(event.plane.identifier); break;
          case 'objectAdded': case 'objectMoved': case 'objectSnapped': setObject(event.object); break;
          case 'objectRemoved': removeObject(event.object.identifier); break;
          case 'focus': setFocus(event); break;
          case 'mapping': world.mapping = event.to; break;
          case 'camera': setCamera(event); break;
          case 'points': setPoints(event); break;
          case 'participant': setParticipant(event); break;
          case 'pointer': setPointer(event); break;
          case 'peerLeft': removePeer(event.peer); break;
          case 'end': world.ended = true; break;
          default: break;  // hit, error and anything newer: nothing to draw
        }
        dirty = true;
      }
      function applyText(text) {
        for (const line of text.split('\n')) {
          if (line.length === 0) continue;
          try { apply(JSON.parse(line)); } catch (e) { console.error('bad message', e, line); }
        }
      }

      // MARK: framing — until the user moves the view, look over the whole scene from above and
      // behind the sensor.
      function frame() {
        if (userMoved) return;
        const box = new THREE.Box3();
        for (const p of world.planes.values()) box.expandByObject(p.group);
        for (const p of world.path) box.expandByPoint(new THREE.Vector3(p[0], p[1], p[2]));
        for (const p of world.participants.values()) box.expandByPoint(new THREE.Vector3().setFromMatrixPosition(p.group.matrix));
        if (box.isEmpty()) return;
        const centre = box.getCenter(new THREE.Vector3());
        const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 0.5);
        const forward = world.cameraForward ? world.cameraForward.clone() : new THREE.Vector3(0, 0, 1);
        forward.y = 0;
        if (forward.lengthSq() < 1e-6) forward.set(0, 0, 1);
        forward.normalize();
        const elevation = THREE.Math.degToRad(60);
        const distance = radius / Math.sin(THREE.Math.degToRad(camera.fov / 2)) * 0.8;
        const offset = forward.clone().multiplyScalar(-Math.cos(elevation) * distance);
        offset.y = Math.sin(elevation) * distance;
        camera.position.copy(centre).add(offset);
        controls.target.copy(centre);
        controls.update();
      }

      function updateLabels() {
        const width = renderer.domElement.clientWidth, height = renderer.domElement.clientHeight;
        const v = new THREE.Vector3();
        for (const p of [...world.planes.values(), ...world.participants.values()]) {
          v.setFromMatrixPosition(p.group.matrix).project(camera);
          const visible = v.z > -1 && v.z < 1 && Math.abs(v.x) <= 1 && Math.abs(v.y) <= 1;
          p.label.style.display = visible ? 'block' : 'none';
          if (visible) {
            p.label.style.left = ((v.x + 1) / 2 * width).toFixed(0) + 'px';
            p.label.style.top = ((1 - v.y) / 2 * height).toFixed(0) + 'px';
          }
        }
      }

      function updatePanel() {
        const state = world.ended ? 'stream ended' : (world.connected ? 'live' : 'not connected');
        statusBox.textContent = 'frame ' + world.frame + '  ·  ' + world.timestamp.toFixed(2) + ' s  ·  ' + state +
          '\nmapping ' + world.mapping + '  ·  ' + world.planes.size + ' planes  ·  ' + world.objects.size + ' objects' +
          (world.participants.size ? '  ·  ' + world.participants.size + ' peers' : '');
        const rows = Array.from(world.planes.values())
          .sort((a, b) => keyOf(a.data.identifier) - keyOf(b.data.identifier))
          .map((p) => '<div><span class="swatch" style="background:#' + p.colour.getHexString() + '"></span>' +
            p.data.identifier + ' ' + p.data.plane.classification + ' ' + p.data.plane.area.toFixed(2) + ' m²</div>');
        legendBox.innerHTML = rows.join('');
        document.body.dataset.frame = String(world.frame);
        document.body.dataset.planes = String(world.planes.size);
        document.body.dataset.participants = String(world.participants.size);
        document.body.dataset.ended = world.ended ? '1' : '0';
      }

      function render() {
        if (dirty) {
          frame();
          updateLabels();
          updatePanel();
          renderer.render(scene, camera);
          dirty = false;
        }
        requestAnimationFrame(render);
      }
      window.addEventListener('resize', () => {
        camera.aspect = window.innerWidth / window.innerHeight;
        camera.updateProjectionMatrix();
        renderer.setSize(window.innerWidth, window.innerHeight);
        dirty = true;
      });

      // MARK: the connection — the state first, then live messages; reconnects when dropped.
      function connect() {
        const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/events';
        const socket = new WebSocket(url);
        socket.onopen = () => { world.connected = true; dirty = true; };
        socket.onmessage = (e) => { if (typeof e.data === 'string') applyText(e.data); };
        socket.onclose = () => { world.connected = false; dirty = true; setTimeout(connect, 1000); };
      }
      fetch('/snapshot.ndjson').then((r) => r.text()).then(applyText).catch(() => {}).then(connect);
      requestAnimationFrame(render);
    })();
    """#
}
