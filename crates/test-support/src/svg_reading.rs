//! Reading back an SVG written by `grid_core::svg`, for tests: parsed as XML by roxmltree
//! (so a file that is not well-formed fails), then the frames of every sprite, its fill per
//! frame, the walls and the marks, taken from the attributes the writer documents. Shared
//! by the SVG tests of every crate, so that all of them read the files the same way.

#![allow(clippy::unwrap_used, clippy::expect_used)]

/// What a test needs to know about one picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawing {
    /// `(width, height)` of the grid, in cells (the floor; the view box adds the frame
    /// and the caption band).
    pub size: (usize, usize),
    /// `(width, height)` of the view box, in cells.
    pub view: (f64, f64),
    /// The `width` and `height` attributes: the size a viewer opens the picture at, in
    /// pixels.
    pub pixels: (f64, f64),
    /// The `data-frames` attribute.
    pub frames: usize,
    /// Wall cells, as (row, col), from the walls path.
    pub walls: Vec<(usize, usize)>,
    /// Mark cells with their labels, in document order.
    pub marks: Vec<((usize, usize), Option<String>)>,
    /// Per sprite, in drawing order.
    pub sprites: Vec<SpriteTrack>,
    /// Cells of the rings drawn over the sprites, in document order.
    pub rings: Vec<(usize, usize)>,
    /// Whether every ring comes after every sprite in the document (is drawn above it).
    pub rings_over_sprites: bool,
    /// The caption shown on each frame (empty when the picture has none).
    pub captions: Vec<String>,
}

/// One sprite as written.
#[derive(Debug, Clone, PartialEq)]
pub struct SpriteTrack {
    /// Its label.
    pub label: String,
    /// Its base place, (row, col): what a viewer without animation shows.
    pub base: (usize, usize),
    /// Its place on every frame, (row, col).
    pub places: Vec<(usize, usize)>,
    /// Its base fill.
    pub base_fill: String,
    /// Its fill on every frame (all the base fill when not animated).
    pub fills: Vec<String>,
}

fn pair(text: &str) -> (usize, usize) {
    let mut it = text.split_whitespace().map(|v| v.parse::<usize>().unwrap());
    let (col, row) = (it.next().unwrap(), it.next().unwrap());
    assert!(it.next().is_none(), "two numbers in {text:?}");
    (row, col)
}

fn key_times(node: roxmltree::Node) -> Vec<f64> {
    node.attribute("keyTimes")
        .unwrap()
        .split(';')
        .map(|t| t.trim().parse::<f64>().unwrap())
        .collect()
}

/// Asserts what a single-box picture shows of its target square `target`: its one
/// mark `mark`, a ring drawn over the pieces (so it shows under the box or the player),
/// and a step counter on every frame.
///
/// # Panics
/// When any of these is missing.
pub fn assert_target_drawn(drawing: &Drawing, target: (usize, usize), mark: &str) {
    assert_eq!(drawing.marks, [(target, Some(mark.to_owned()))]);
    assert_eq!(drawing.rings, [target]);
    assert!(drawing.rings_over_sprites);
    assert_eq!(
        drawing.captions.len(),
        drawing.frames,
        "a step counter per frame"
    );
}

/// Parses `text` and checks the invariants every picture keeps (one value and one key time
/// per frame, increasing key times from 0, base attributes equal to the first frame).
///
/// # Panics
/// When the text is not well-formed XML or breaks one of those invariants.
pub fn read(text: &str) -> Drawing {
    let doc = roxmltree::Document::parse(text).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let view: Vec<f64> = root
        .attribute("viewBox")
        .unwrap()
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect();
    // The grid spans 0..width, 0..height, inside a frame of a quarter cell; the caption
    // band, when there is one, is below it.
    assert_eq!(view[..2], [-0.25, -0.25]);
    let floor = root
        .children()
        .find(|n| n.attribute("class") == Some("floor"))
        .unwrap();
    let attr = |name| floor.attribute(name).unwrap().parse::<usize>().unwrap();
    let size = (attr("width"), attr("height"));
    assert_eq!(
        view[2],
        size.0 as f64 + 0.5,
        "the view box holds the grid's width"
    );
    assert!(
        view[3] >= size.1 as f64 + 0.5,
        "the view box holds the grid's height"
    );
    let px = |name| root.attribute(name).unwrap().parse::<f64>().unwrap();
    let pixels = (px("width"), px("height"));
    // The default size keeps the view box's shape (up to rounding to whole pixels).
    assert!(
        (pixels.0 * view[3] - pixels.1 * view[2]).abs() <= view[2].max(view[3]),
        "{pixels:?} for a view box of {view:?}"
    );
    let frames: usize = root.attribute("data-frames").unwrap().parse().unwrap();
    let class = |n: &roxmltree::Node, c: &str| n.attribute("class") == Some(c);
    let mut walls = Vec::new();
    if let Some(path) = root.descendants().find(|n| class(n, "walls")) {
        let d = path.attribute("d").unwrap();
        for run in d.split('z').map(str::trim).filter(|r| !r.is_empty()) {
            // M{col} {row}h{len}v1h-{len}
            let run = run.strip_prefix('M').unwrap();
            let (start, rest) = run.split_once('h').unwrap();
            let (len, back) = rest.split_once("v1h-").unwrap();
            assert_eq!(len, back, "a run closes on itself");
            let (row, col) = pair(start);
            let len: usize = len.parse().unwrap();
            walls.extend((col..col + len).map(|c| (row, c)));
        }
    }
    walls.sort_unstable();
    let mut marks = Vec::new();
    if let Some(group) = root.descendants().find(|n| class(n, "marks")) {
        let children: Vec<_> = group.children().filter(|n| n.is_element()).collect();
        for (i, node) in children.iter().enumerate() {
            if node.tag_name().name() != "rect" {
                continue;
            }
            let at = |name| {
                node.attribute(name)
                    .unwrap()
                    .parse::<f64>()
                    .unwrap()
                    .floor() as usize
            };
            let label = children
                .get(i + 1)
                .filter(|n| n.tag_name().name() == "text")
                .map(|n| n.text().unwrap_or("").to_owned());
            marks.push(((at("y"), at("x")), label));
        }
    }
    let mut sprites = Vec::new();
    let mut sprite_times: Option<Vec<f64>> = None;
    let last_sprite = root
        .descendants()
        .rfind(|n| class(n, "sprite"))
        .map(|n| n.range().end);
    for group in root.descendants().filter(|n| class(n, "sprite")) {
        let base = group
            .attribute("transform")
            .unwrap()
            .strip_prefix("translate(")
            .unwrap()
            .strip_suffix(')')
            .unwrap();
        let base = pair(base);
        let motion = group
            .children()
            .find(|n| n.tag_name().name() == "animateTransform")
            .unwrap();
        assert_eq!(motion.attribute("calcMode"), Some("discrete"));
        let places: Vec<_> = motion
            .attribute("values")
            .unwrap()
            .split(';')
            .map(pair)
            .collect();
        let times = key_times(motion);
        assert_eq!(places.len(), frames, "one place per frame");
        assert_eq!(times.len(), frames, "one key time per frame");
        assert_eq!(times[0], 0.0);
        assert!(times.windows(2).all(|w| w[0] < w[1]) && times[frames - 1] < 1.0);
        assert_eq!(places[0], base, "the static picture is the first frame");
        match &sprite_times {
            Some(first) => assert_eq!(first, &times, "every sprite on the same key times"),
            None => sprite_times = Some(times.clone()),
        }
        let shape = group
            .children()
            .find(|n| matches!(n.tag_name().name(), "circle" | "rect"))
            .unwrap();
        let base_fill = shape.attribute("fill").unwrap().to_owned();
        let fills = match shape.children().find(|n| n.tag_name().name() == "animate") {
            Some(animate) => {
                assert_eq!(animate.attribute("attributeName"), Some("fill"));
                assert_eq!(key_times(animate), times);
                let fills: Vec<String> = animate
                    .attribute("values")
                    .unwrap()
                    .split(';')
                    .map(str::to_owned)
                    .collect();
                assert_eq!(fills[0], base_fill);
                fills
            }
            None => vec![base_fill.clone(); frames],
        };
        assert_eq!(fills.len(), frames, "one fill per frame");
        let label = group
            .children()
            .find(|n| n.tag_name().name() == "text")
            .and_then(|n| n.text())
            .unwrap_or("")
            .to_owned();
        sprites.push(SpriteTrack {
            label,
            base,
            places,
            base_fill,
            fills,
        });
    }
    let mut rings = Vec::new();
    let mut rings_over_sprites = true;
    for group in root.descendants().filter(|n| class(n, "rings")) {
        rings_over_sprites &= last_sprite.is_none_or(|end| group.range().start >= end);
        for ring in group.children().filter(|n| n.tag_name().name() == "rect") {
            let at = |name| {
                ring.attribute(name)
                    .unwrap()
                    .parse::<f64>()
                    .unwrap()
                    .floor() as usize
            };
            rings.push((at("y"), at("x")));
        }
    }
    let captions = read_captions(root, frames, sprite_times.as_deref());
    Drawing {
        size,
        view: (view[2], view[3]),
        pixels,
        frames,
        walls,
        marks,
        sprites,
        rings,
        rings_over_sprites,
        captions,
    }
}

/// The caption texts, one per frame, checked to show on their frame only: the first one
/// visible without animation and the others hidden, each made visible from its frame's
/// key time (the sprites' key times, when there are sprites) to the next frame's.
fn read_captions(
    root: roxmltree::Node,
    frames: usize,
    sprite_times: Option<&[f64]>,
) -> Vec<String> {
    let Some(group) = root
        .descendants()
        .find(|n| n.attribute("class") == Some("caption"))
    else {
        assert_eq!(frames, 0, "a caption whenever there is a frame");
        return Vec::new();
    };
    let texts: Vec<_> = group
        .children()
        .filter(|n| n.tag_name().name() == "text")
        .collect();
    assert_eq!(texts.len(), frames, "one caption per frame");
    // starts[k]: when caption k becomes visible; ends[k]: when it is hidden again.
    let mut starts = Vec::new();
    let mut ends = Vec::new();
    for (k, text) in texts.iter().enumerate() {
        let hidden = text.attribute("visibility") == Some("hidden");
        assert_eq!(
            hidden,
            k > 0,
            "caption {k}: only the first one shows without animation"
        );
        let Some(animate) = text.children().find(|n| n.tag_name().name() == "animate") else {
            assert_eq!(frames, 1, "caption {k} is animated");
            continue;
        };
        assert_eq!(animate.attribute("attributeName"), Some("visibility"));
        assert_eq!(animate.attribute("calcMode"), Some("discrete"));
        let times = key_times(animate);
        let values: Vec<_> = animate.attribute("values").unwrap().split(';').collect();
        assert_eq!(times[0], 0.0);
        match values[..] {
            ["visible", "hidden"] if k == 0 => ends.push(times[1]),
            ["hidden", "visible"] if k + 1 == frames => starts.push(times[1]),
            ["hidden", "visible", "hidden"] => {
                starts.push(times[1]);
                ends.push(times[2]);
            }
            _ => panic!("caption {k}: visibility {values:?}"),
        }
    }
    // Each caption hides when the next shows, on the frames' key times.
    assert_eq!(starts, ends, "the captions follow one another");
    if let Some(times) = sprite_times {
        assert_eq!(
            starts,
            times[1..],
            "the captions keep step with the sprites"
        );
    }
    texts
        .iter()
        .map(|n| n.text().unwrap_or("").to_owned())
        .collect()
}

/// A file in `dir` for the picture of this thread's fuzz runs (tests run in parallel, so
/// each thread has its own), removed if an earlier run left it.
pub fn scratch_file(dir: &std::path::Path) -> std::path::PathBuf {
    let thread = format!("{:?}", std::thread::current().id());
    let id: String = thread.chars().filter(char::is_ascii_digit).collect();
    let path = dir.join(format!("fuzz-{id}.svg"));
    let _ = std::fs::remove_file(&path);
    path
}

/// The picture of the first case, when a run saved one at `path`, is well-formed and keeps
/// the writer's invariants.
///
/// # Panics
/// When it does not (the point of the check).
pub fn check_saved(path: Option<&std::path::Path>) {
    if let Some(text) = path.and_then(|p| std::fs::read_to_string(p).ok()) {
        let drawing = read(&text);
        assert!(drawing.frames >= 1, "at least the start");
    }
}
