//! Animated SVG pictures of grid solutions: walls, floor and marks (targets, homes, goals)
//! drawn once, and moving pieces (sprites) whose places change frame by frame.
//!
//! The output is one self-contained SVG file (no external resources, no script) that a
//! browser plays as a SMIL animation, one step every [`Timing::step_ms`] with a pause of
//! [`Timing::pause_ms`] on the last frame, over and over. The base attributes of every
//! sprite are its first frame, so a viewer without animation (an image preview, a PDF
//! converter) shows the start of the level.
//!
//! How the file is laid out, and why:
//! - coordinates are in cells (the grid spans `0 0 width height`, inside a quarter-cell
//!   frame of wall), so every place is two small integers, short even on large maps;
//! - the `viewBox` holds the grid, its frame and the caption band; the `width` and
//!   `height` (the size a viewer opens it at) give 40 pixels a cell on small grids and
//!   at most 1000 pixels along the longer side on large ones, so a 4096 x 4096 map fits a
//!   window and still zooms as vector art;
//! - under the grid, a caption band says `step k / T` on frame k: one `<text>` per frame,
//!   its `visibility` animated on the same key times as the sprites (SMIL, no script);
//! - marks (targets, homes, goals) are tinted cells under the sprites; a mark made
//!   [`Mark::with_ring`] also gets a ring drawn after the sprites, so a Sokoban goal stays
//!   visible under a box or the player;
//! - the floor is one rectangle, the walls one path of merged horizontal runs (one
//!   subpath per run of wall cells in a row), so a 4096 x 4096 map costs its runs, not its
//!   cells;
//! - each sprite is a `<g>` whose `transform="translate(col row)"` holds its first place
//!   and whose `<animateTransform calcMode="discrete">` lists its place on every frame
//!   (`values` and `keyTimes` have one entry per frame); its fill is animated the same way
//!   only when its [`Look`] changes during the animation.
//!
//! The writer streams to any [`Write`]: only the frames themselves are held in memory
//! (a [`Recording`], 12 bytes per sprite per frame), never the text. Measured: 400 agents
//! over 300 frames on a 161 x 63 map write 1.7 MB in 0.05 s (before the step caption,
//! which adds about 170 bytes a frame).
//!
//! How a program uses it: build a [`Picture`] once per level ([`Picture::from_grid`], a
//! [`Mark`] per target or home, a [`Sprite`] per piece, [`Colour::palette`] to tell many
//! pieces apart), record one [`Place`] per sprite per frame by replaying the answer it
//! prints, and save it with [`write_file`] under the name [`case_path`] gives case k.
//!
//! # Example
//! A person walking east, then pushing a box east onto its target:
//! ```
//! use grid_core::svg::{Colour, Look, Mark, Picture, Place, Recording, Shape, Sprite};
//!
//! // Row 0 is "#....#": walls at both ends.
//! let mut picture = Picture::new(1, 6, |_row, col| col == 0 || col == 5);
//! picture.add_mark(Mark::new(0, 4, Colour::TARGET));
//! let person = picture.add_sprite(Sprite::new(Shape::Circle, "P", Colour::PERSON));
//! let crate_ = picture.add_sprite(
//!     Sprite::new(Shape::RoundedSquare, "B", Colour::BOX).with_look(Look::Pushed, Colour::PUSHED),
//! );
//! assert_eq!((person, crate_), (0, 1));
//!
//! let mut frames = Recording::new(2);
//! frames.push_frame(&[Place::at(0, 1), Place::at(0, 3)]);
//! frames.push_frame(&[Place::at(0, 2), Place::at(0, 3)]);
//! frames.push_frame(&[Place::at(0, 3), Place::at(0, 4).look(Look::Pushed)]);
//!
//! let mut svg = Vec::new();
//! picture.write(&mut svg, &frames)?;
//! let text = String::from_utf8(svg).unwrap();
//! assert!(text.starts_with("<svg "));
//! assert!(text.contains(r#"values="1 0;2 0;3 0""#));
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! # Complexity
//! [`Picture::new`] is O(height x width); [`Picture::write`] is O(wall runs + marks +
//! (sprites + 1) x frames) time and output, with O(frames) memory (the key times) beyond
//! the picture and the frames.

use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::cli::RunError;
use crate::grid::Grid;

/// A colour, written as `#rrggbb`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Colour {
    /// Red, 0-255.
    pub r: u8,
    /// Green, 0-255.
    pub g: u8,
    /// Blue, 0-255.
    pub b: u8,
}

impl Colour {
    /// The floor.
    pub const FLOOR: Colour = Colour::rgb(0xf4, 0xf1, 0xea);
    /// Walls.
    pub const WALL: Colour = Colour::rgb(0x3d, 0x3f, 0x4a);
    /// A Sokoban target.
    pub const TARGET: Colour = Colour::rgb(0xd9, 0x4a, 0x3d);
    /// The Sokoban person.
    pub const PERSON: Colour = Colour::rgb(0x2c, 0x6e, 0xc9);
    /// A Sokoban box standing still.
    pub const BOX: Colour = Colour::rgb(0xc8, 0x8a, 0x3a);
    /// A Sokoban box on a frame where it is pushed.
    pub const PUSHED: Colour = Colour::rgb(0xe0, 0x3c, 0x28);
    /// A piece that has arrived (a box on its target, an agent on its goal).
    pub const ARRIVED: Colour = Colour::rgb(0x3a, 0x9a, 0x4f);

    /// The colour with these components.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Colour { r, g, b }
    }

    /// The `index`-th of a sequence of well-separated hues (golden-angle steps), for
    /// telling many pieces apart: ghost `a`, `b`, ... or hundreds of agents.
    pub fn palette(index: usize) -> Self {
        // 137.5 degrees apart: neighbours in the sequence never share a hue; lightness
        // alternates in three levels so that close hues far apart in the sequence differ.
        let hue = (210.0 + index as f64 * 137.507_764) % 360.0;
        let lightness = [0.45, 0.36, 0.54][index % 3];
        hsl(hue, 0.65, lightness)
    }

    /// Whether dark text reads better than white text on this colour.
    fn is_light(self) -> bool {
        // Relative luminance, roughly (sRGB weights without the gamma curve).
        let y =
            0.2126 * f64::from(self.r) + 0.7152 * f64::from(self.g) + 0.0722 * f64::from(self.b);
        y > 150.0
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

/// HSL (hue in degrees, saturation and lightness in 0..=1) to RGB.
fn hsl(hue: f64, saturation: f64, lightness: f64) -> Colour {
    let chroma = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let h = hue / 60.0;
    let x = chroma * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (chroma, x, 0.0),
        1 => (x, chroma, 0.0),
        2 => (0.0, chroma, x),
        3 => (0.0, x, chroma),
        4 => (x, 0.0, chroma),
        _ => (chroma, 0.0, x),
    };
    let m = lightness - chroma / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    Colour::rgb(byte(r), byte(g), byte(b))
}

/// A static marker on one cell, drawn under the sprites: a target, a ghost's home, an
/// agent's goal. Drawn as the cell tinted in its colour, with an optional label, and
/// optionally a ring in its colour drawn over the sprites ([`Mark::with_ring`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    row: usize,
    col: usize,
    colour: Colour,
    label: Option<String>,
    ring: bool,
}

impl Mark {
    /// A mark on the cell at `row`, `col` (0-based), without a label.
    pub fn new(row: usize, col: usize, colour: Colour) -> Self {
        Mark {
            row,
            col,
            colour,
            label: None,
            ring: false,
        }
    }

    /// The same mark with `label` (a letter, a number) written on it. Labels of more than
    /// two characters are written smaller, so that four digits still fit the cell.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// The same mark, also outlined by a ring drawn after (above) every sprite, just
    /// outside a sprite's outline: the mark stays visible when a piece stands on it (a
    /// Sokoban goal under a box or the player).
    pub fn with_ring(mut self) -> Self {
        self.ring = true;
        self
    }
}

/// Font size, in cells, of a label of `chars` characters on one cell: one or two fill
/// the cell, longer ones shrink so that up to four digits fit.
fn label_size(chars: usize) -> f64 {
    match chars {
        0..=1 => 0.6,
        2 => 0.45,
        3 => 0.32,
        _ => 0.25,
    }
}

/// The outline of a sprite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A disc: people, ghosts, agents.
    Circle,
    /// A square with rounded corners: boxes.
    RoundedSquare,
}

/// How a sprite is coloured on one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Look {
    /// Its own colour.
    #[default]
    Plain,
    /// Moved by a push on this frame (a box the person just pushed).
    Pushed,
    /// On its target or goal.
    Arrived,
}

impl Look {
    fn index(self) -> usize {
        self as usize
    }
}

/// A moving piece: a shape in a colour (one per [`Look`]) with a short label on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sprite {
    shape: Shape,
    label: String,
    /// Fill per [`Look`], indexed by [`Look::index`].
    fills: [Colour; 3],
}

impl Sprite {
    /// A sprite drawn as `shape` in `colour` (for every look), with `label` on it (keep it
    /// to one to three characters: it is sized to fit one cell).
    pub fn new(shape: Shape, label: impl Into<String>, colour: Colour) -> Self {
        Sprite {
            shape,
            label: label.into(),
            fills: [colour; 3],
        }
    }

    /// The same sprite, filled with `colour` on the frames where it has `look`.
    pub fn with_look(mut self, look: Look, colour: Colour) -> Self {
        self.fills[look.index()] = colour;
        self
    }
}

/// Where a sprite stands on one frame, and how it looks there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// Its colouring on this frame.
    pub look: Look,
}

impl Place {
    /// At `row`, `col`, looking [`Look::Plain`].
    pub fn at(row: usize, col: usize) -> Self {
        Place {
            row,
            col,
            look: Look::Plain,
        }
    }

    /// The same place with `look`.
    pub fn look(self, look: Look) -> Self {
        Place { look, ..self }
    }
}

/// The frames of an animation: the place of every sprite on every frame, in the order the
/// sprites were added to the [`Picture`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recording {
    sprites: usize,
    frames: usize,
    /// Frame-major: `places[frame * sprites + sprite]`, as (row, col, look).
    places: Vec<(u32, u32, Look)>,
}

impl Recording {
    /// An empty recording of `sprites` sprites.
    pub fn new(sprites: usize) -> Self {
        Recording {
            sprites,
            frames: 0,
            places: Vec::new(),
        }
    }

    /// Appends a frame: `places[i]` is where sprite `i` stands.
    ///
    /// Rows and columns are stored in 32 bits (grids are far smaller), larger ones as
    /// `u32::MAX`.
    ///
    /// # Panics
    /// When `places` does not hold one place per sprite.
    pub fn push_frame(&mut self, places: &[Place]) {
        assert_eq!(places.len(), self.sprites, "one place per sprite");
        let narrow = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        self.places.extend(
            places
                .iter()
                .map(|p| (narrow(p.row), narrow(p.col), p.look)),
        );
        self.frames += 1;
    }

    /// Number of frames recorded.
    pub fn frame_count(&self) -> usize {
        self.frames
    }

    /// Number of sprites per frame.
    pub fn sprite_count(&self) -> usize {
        self.sprites
    }

    /// Where sprite `sprite` stands on frame `frame`.
    ///
    /// # Panics
    /// When either is out of range.
    pub fn place(&self, frame: usize, sprite: usize) -> Place {
        assert!(sprite < self.sprites, "sprite out of range");
        let (row, col, look) = self.places[frame * self.sprites + sprite];
        Place {
            row: row as usize,
            col: col as usize,
            look,
        }
    }
}

/// How fast the animation plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// How long each frame but the last is shown, in milliseconds.
    pub step_ms: u32,
    /// How long the last frame is shown before the animation starts again, in ms.
    pub pause_ms: u32,
}

impl Default for Timing {
    /// 300 ms a step, 1.5 s on the last frame.
    fn default() -> Self {
        Timing {
            step_ms: 300,
            pause_ms: 1500,
        }
    }
}

/// Width of the wall-coloured frame around the grid, in cells.
const BORDER: &str = "0.25";

/// Largest default size of the drawing, in pixels, along the longer side of the grid (the
/// file is vector art with a `viewBox`: a viewer may zoom at will; this only sets the
/// `width` and `height` it opens at, so that a large map fits a window).
const LONG_SIDE_PIXELS: f64 = 1000.0;

/// Default size of one cell, in pixels, on small grids (up to 24 cells a side).
const CELL_PIXELS: f64 = 40.0;

/// Height of the caption band under the grid (the step counter), in pixels at the
/// default size, whatever the grid's size.
const CAPTION_PIXELS: f64 = 24.0;

/// The static part of a picture (size, walls, marks), the sprites that move over it, and
/// the timing. Build it once per level, then [`Picture::write`] it with the frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    height: usize,
    width: usize,
    /// Per run of wall cells in one row: (row, first column, length).
    wall_runs: Vec<(u32, u32, u32)>,
    marks: Vec<Mark>,
    sprites: Vec<Sprite>,
    timing: Timing,
    title: Option<String>,
}

impl Picture {
    /// A `height` x `width` picture whose wall cells are those where `is_wall(row, col)`
    /// holds; every other cell is floor.
    ///
    /// # Complexity
    /// O(height x width) time; memory O(wall runs).
    pub fn new(height: usize, width: usize, mut is_wall: impl FnMut(usize, usize) -> bool) -> Self {
        let mut wall_runs = Vec::new();
        for row in 0..height {
            let mut col = 0;
            while col < width {
                if !is_wall(row, col) {
                    col += 1;
                    continue;
                }
                let first = col;
                while col < width && is_wall(row, col) {
                    col += 1;
                }
                wall_runs.push((row as u32, first as u32, (col - first) as u32));
            }
        }
        Picture {
            height,
            width,
            wall_runs,
            marks: Vec::new(),
            sprites: Vec::new(),
            timing: Timing::default(),
            title: None,
        }
    }

    /// The picture of `grid`: its cells are floor, everything else wall.
    pub fn from_grid(grid: &Grid) -> Self {
        Picture::new(grid.height(), grid.width(), |row, col| {
            grid.cell(row, col).is_none()
        })
    }

    /// Adds a static mark (drawn in the order added, under every sprite).
    pub fn add_mark(&mut self, mark: Mark) {
        self.marks.push(mark);
    }

    /// Adds a sprite and returns its index: its place on each frame is
    /// [`Recording::place`]`(frame, index)`. Sprites added later are drawn on top.
    pub fn add_sprite(&mut self, sprite: Sprite) -> usize {
        self.sprites.push(sprite);
        self.sprites.len() - 1
    }

    /// Sets how fast the animation plays (default: [`Timing::default`]).
    pub fn set_timing(&mut self, timing: Timing) {
        self.timing = timing;
    }

    /// Sets the `<title>` of the drawing (shown by viewers as its name or tooltip).
    pub fn set_title(&mut self, title: impl Into<String>) {
        self.title = Some(title.into());
    }

    /// Number of runs of wall cells (one subpath each in the file).
    pub fn wall_run_count(&self) -> usize {
        self.wall_runs.len()
    }

    /// Writes the picture as one SVG document, animated over the frames of `frames`, with
    /// the step counter under the grid. With no frame, the level alone is drawn (no
    /// caption); with no sprite, the level and the counter.
    ///
    /// # Errors
    /// When writing to `out` fails.
    ///
    /// # Panics
    /// When `frames` does not have one place per sprite of the picture.
    ///
    /// # Complexity
    /// O(wall runs + marks + (sprites + 1) x frames).
    pub fn write(&self, out: &mut impl Write, frames: &Recording) -> io::Result<()> {
        assert_eq!(
            frames.sprite_count(),
            self.sprites.len(),
            "the recording has one place per sprite of the picture"
        );
        let (height, width) = (self.height, self.width);
        // Pixels per cell at the default size: 40 on small grids, less on large ones so
        // that the longer side (with its border) is at most LONG_SIDE_PIXELS.
        let long_side = height.max(width) as f64 + 0.5;
        let cell_px = CELL_PIXELS.min(LONG_SIDE_PIXELS / long_side);
        // The caption band (the step counter) under the grid, in cells: as many pixels
        // tall on a large map as on a small one.
        let band = if frames.frame_count() > 0 {
            CAPTION_PIXELS / cell_px
        } else {
            0.0
        };
        let view_height = height as f64 + 0.5 + band;
        // A border of a quarter cell in the wall colour: outside the grid is wall, and
        // levels without a wall border still look closed.
        writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="-{BORDER} -{BORDER} {width}.5 {}" data-frames="{}" data-step-ms="{}" data-pause-ms="{}">"#,
            ((width as f64 + 0.5) * cell_px).round().max(1.0),
            (view_height * cell_px).round().max(1.0),
            Decimal(view_height),
            frames.frame_count(),
            self.timing.step_ms,
            self.timing.pause_ms,
        )?;
        if let Some(title) = &self.title {
            writeln!(out, "<title>{}</title>", Escaped(title))?;
        }
        writeln!(
            out,
            r#"<rect class="border" x="-{BORDER}" y="-{BORDER}" width="{width}.5" height="{height}.5" fill="{}"/>"#,
            Colour::WALL
        )?;
        writeln!(
            out,
            r#"<rect class="floor" width="{width}" height="{height}" fill="{}"/>"#,
            Colour::FLOOR
        )?;
        self.write_walls(out)?;
        self.write_marks(out)?;
        let key_times = KeyTimes::new(frames.frame_count(), self.timing);
        self.write_sprites(out, frames, &key_times)?;
        self.write_rings(out)?;
        self.write_caption(out, &key_times, band)?;
        writeln!(out, "</svg>")
    }

    fn write_walls(&self, out: &mut impl Write) -> io::Result<()> {
        if self.wall_runs.is_empty() {
            return Ok(());
        }
        // crispEdges: runs of adjacent rows meet without anti-aliasing seams.
        write!(
            out,
            r#"<path class="walls" fill="{}" shape-rendering="crispEdges" d=""#,
            Colour::WALL
        )?;
        for (i, &(row, col, len)) in self.wall_runs.iter().enumerate() {
            // A line break now and then keeps the file readable in a text editor.
            let sep = if i > 0 && i % 16 == 0 { "\n" } else { "" };
            write!(out, "{sep}M{col} {row}h{len}v1h-{len}z")?;
        }
        writeln!(out, r#""/>"#)
    }

    fn write_marks(&self, out: &mut impl Write) -> io::Result<()> {
        if self.marks.is_empty() {
            return Ok(());
        }
        writeln!(
            out,
            r#"<g class="marks" font-family="sans-serif" font-size="0.5" text-anchor="middle">"#
        )?;
        for mark in &self.marks {
            let (row, col) = (mark.row, mark.col);
            writeln!(
                out,
                r#"<rect x="{col}.08" y="{row}.08" width="0.84" height="0.84" rx="0.12" fill="{}" fill-opacity="0.3" stroke="{}" stroke-width="0.06"/>"#,
                mark.colour, mark.colour
            )?;
            if let Some(label) = &mark.label {
                let size = label_size(label.chars().count()).min(0.5);
                write!(
                    out,
                    r#"<text x="{col}.5" y="{}""#,
                    Decimal(row as f64 + 0.5 + size * 0.36)
                )?;
                if size != 0.5 {
                    write!(out, r#" font-size="{size}""#)?;
                }
                writeln!(out, r#" fill="{}">{}</text>"#, mark.colour, Escaped(label))?;
            }
        }
        writeln!(out, "</g>")
    }

    /// The rings of the marks that have one, after the sprites so that they are drawn
    /// over them.
    fn write_rings(&self, out: &mut impl Write) -> io::Result<()> {
        if !self.marks.iter().any(|mark| mark.ring) {
            return Ok(());
        }
        writeln!(out, r#"<g class="rings" fill="none" stroke-width="0.06">"#)?;
        for mark in self.marks.iter().filter(|mark| mark.ring) {
            // Just outside a sprite's outline (0.08 to 0.92 of the cell, stroke 0.05).
            writeln!(
                out,
                r#"<rect x="{}.03" y="{}.03" width="0.94" height="0.94" rx="0.16" stroke="{}"/>"#,
                mark.col, mark.row, mark.colour
            )?;
        }
        writeln!(out, "</g>")
    }

    /// The caption under the grid: "step k / T" on frame k (T = frames - 1), one text per
    /// frame, shown on its frame only by an animation in step with the sprites'. The first
    /// frame's text is the one a viewer without animation shows.
    fn write_caption(
        &self,
        out: &mut impl Write,
        key_times: &KeyTimes,
        band: f64,
    ) -> io::Result<()> {
        let count = key_times.count();
        if count == 0 {
            return Ok(());
        }
        let (width, height) = (self.width, self.height);
        writeln!(
            out,
            r#"<rect class="caption-band" x="-{BORDER}" y="{height}.25" width="{width}.5" height="{}" fill="{}"/>"#,
            Decimal(band),
            Colour::FLOOR
        )?;
        // The baseline a little above the bottom of the band; text from the left edge.
        writeln!(
            out,
            r#"<g class="caption" transform="translate(0 {})" font-family="sans-serif" font-size="{}" fill="{}">"#,
            Decimal(height as f64 + 0.25 + band * 0.78),
            Decimal(band * 0.7),
            Colour::WALL
        )?;
        let last = count - 1;
        let dur = key_times.dur;
        for frame in 0..count {
            let hidden = if frame == 0 {
                ""
            } else {
                r#" visibility="hidden""#
            };
            write!(out, "<text{hidden}>step {frame} / {last}")?;
            if count > 1 {
                let common = format!(
                    r#"<animate attributeName="visibility" calcMode="discrete" dur="{dur}ms" repeatCount="indefinite""#
                );
                // Visible from its key time to the next frame's.
                let (times, values) = match frame {
                    0 => (format!("0;{}", key_times.at(1)), "visible;hidden"),
                    f if f == last => (format!("0;{}", key_times.at(f)), "hidden;visible"),
                    f => (
                        format!("0;{};{}", key_times.at(f), key_times.at(f + 1)),
                        "hidden;visible;hidden",
                    ),
                };
                write!(out, r#"{common} keyTimes="{times}" values="{values}"/>"#)?;
            }
            writeln!(out, "</text>")?;
        }
        writeln!(out, "</g>")
    }

    fn write_sprites(
        &self,
        out: &mut impl Write,
        frames: &Recording,
        key_times: &KeyTimes,
    ) -> io::Result<()> {
        let count = frames.frame_count();
        if count == 0 || self.sprites.is_empty() {
            return Ok(());
        }
        let dur = key_times.dur;
        writeln!(
            out,
            r#"<g class="sprites" font-family="sans-serif" font-weight="bold" text-anchor="middle">"#
        )?;
        for (index, sprite) in self.sprites.iter().enumerate() {
            let first = frames.place(0, index);
            writeln!(
                out,
                r#"<g class="sprite" transform="translate({} {})">"#,
                first.col, first.row
            )?;
            write!(
                out,
                r#"<animateTransform attributeName="transform" type="translate" calcMode="discrete" dur="{dur}ms" repeatCount="indefinite" keyTimes="{key_times}" values=""#
            )?;
            for frame in 0..count {
                let place = frames.place(frame, index);
                let sep = if frame == 0 { "" } else { ";" };
                write!(out, "{sep}{} {}", place.col, place.row)?;
            }
            writeln!(out, r#""/>"#)?;
            let fill = sprite.fills[first.look.index()];
            match sprite.shape {
                Shape::Circle => write!(
                    out,
                    r#"<circle cx="0.5" cy="0.5" r="0.42" fill="{fill}" stroke="{}" stroke-width="0.05">"#,
                    Colour::WALL
                )?,
                Shape::RoundedSquare => write!(
                    out,
                    r#"<rect x="0.08" y="0.08" width="0.84" height="0.84" rx="0.18" fill="{fill}" stroke="{}" stroke-width="0.05">"#,
                    Colour::WALL
                )?,
            }
            let fill_changes = (1..count)
                .any(|frame| sprite.fills[frames.place(frame, index).look.index()] != fill);
            if fill_changes {
                write!(
                    out,
                    r#"<animate attributeName="fill" calcMode="discrete" dur="{dur}ms" repeatCount="indefinite" keyTimes="{key_times}" values=""#
                )?;
                for frame in 0..count {
                    let sep = if frame == 0 { "" } else { ";" };
                    let look = frames.place(frame, index).look;
                    write!(out, "{sep}{}", sprite.fills[look.index()])?;
                }
                write!(out, r#""/>"#)?;
            }
            match sprite.shape {
                Shape::Circle => writeln!(out, "</circle>")?,
                Shape::RoundedSquare => writeln!(out, "</rect>")?,
            }
            // Labels of up to 2 characters fill the cell; longer ones shrink to fit.
            let size = label_size(sprite.label.chars().count());
            let ink = if fill.is_light() {
                Colour::WALL
            } else {
                Colour::rgb(0xff, 0xff, 0xff)
            };
            writeln!(
                out,
                r#"<text x="0.5" y="{:.2}" font-size="{size}" fill="{ink}">{}</text>"#,
                0.5 + size * 0.36,
                Escaped(&sprite.label)
            )?;
            writeln!(out, "</g>")?;
        }
        writeln!(out, "</g>")
    }
}

/// The file the picture of case `case` (1-based) goes to when a program is given
/// `--svg path`: case 1 in `path` itself, case k > 1 in `path` with `-k` inserted before
/// its extension (`out.svg`, `out-2.svg`, `out-3.svg`, ...; `out` gives `out-2`). The rule
/// needs no look-ahead, so pictures are written while the input is still streaming in.
///
/// ```
/// use std::path::Path;
/// use grid_core::svg::case_path;
///
/// assert_eq!(case_path(Path::new("pics/out.svg"), 1), Path::new("pics/out.svg"));
/// assert_eq!(case_path(Path::new("pics/out.svg"), 3), Path::new("pics/out-3.svg"));
/// assert_eq!(case_path(Path::new("out"), 2), Path::new("out-2"));
/// ```
pub fn case_path(path: &Path, case: u64) -> PathBuf {
    if case <= 1 {
        return path.to_path_buf();
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{case}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{case}"),
    };
    path.with_file_name(name)
}

/// Creates (or truncates) the file at `path` and lets `write` fill it through a buffer,
/// flushed at the end: how the programs save a picture.
///
/// # Errors
/// [`RunError::Picture`] naming `path` when it cannot be created, written or flushed.
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> Result<(), RunError> {
    let failed = |source| RunError::Picture {
        path: path.to_path_buf(),
        source,
    };
    let mut out = BufWriter::new(File::create(path).map_err(failed)?);
    write(&mut out).map_err(failed)?;
    out.flush().map_err(failed)
}

/// Decimal digits for key times: enough that consecutive frames get distinct times.
fn key_time_digits(frames: usize) -> usize {
    let mut digits = 3;
    let mut span = 1000;
    while span < frames.saturating_mul(10) {
        digits += 1;
        span *= 10;
    }
    digits
}

/// The key times of the frames, shared by every animation of a picture so that they play
/// in step: frame i at i x step / dur, as short decimals ("0;.125;.25"), `digits` of them.
struct KeyTimes {
    /// Frame i's time in units of 10^-digits of `dur`; `ticks[0] == 0`.
    ticks: Vec<u64>,
    /// Length of one loop of the animation, in ms.
    dur: u64,
    digits: usize,
}

impl KeyTimes {
    /// The key times of `count` frames played at `timing`.
    fn new(count: usize, timing: Timing) -> Self {
        let step = u64::from(timing.step_ms.max(1));
        // Frame i starts at i x step; the last one stays for the pause (at least a step).
        let dur = (count.max(1) as u64 - 1) * step + u64::from(timing.pause_ms).max(step);
        let digits = key_time_digits(count);
        let scale = 10u64.pow(digits as u32);
        let mut ticks = Vec::with_capacity(count);
        let mut last = 0;
        for frame in 0..count as u64 {
            // Rounded to the nearest, and kept strictly increasing (the digits make room).
            let t = (2 * frame * step * scale + dur) / (2 * dur);
            let t = if frame == 0 { 0 } else { t.max(last + 1) };
            last = t;
            ticks.push(t);
        }
        KeyTimes { ticks, dur, digits }
    }

    fn count(&self) -> usize {
        self.ticks.len()
    }

    /// Frame `frame`'s key time.
    fn at(&self, frame: usize) -> KeyTime {
        KeyTime {
            tick: self.ticks[frame],
            digits: self.digits,
        }
    }
}

impl fmt::Display for KeyTimes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for frame in 0..self.count() {
            let sep = if frame == 0 { "" } else { ";" };
            write!(f, "{sep}{}", self.at(frame))?;
        }
        Ok(())
    }
}

/// One key time, as a short decimal: `0`, `.125`.
struct KeyTime {
    tick: u64,
    digits: usize,
}

impl fmt::Display for KeyTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.tick == 0 {
            return f.write_str("0");
        }
        let text = format!("{:0width$}", self.tick, width = self.digits);
        write!(f, ".{}", text.trim_end_matches('0'))
    }
}

/// A length in cells, written with at most three decimals and no trailing zeros.
struct Decimal(f64);

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{:.3}", self.0);
        let text = text.trim_end_matches('0').trim_end_matches('.');
        f.write_str(text)
    }
}

/// Text with the XML special characters escaped.
struct Escaped<'a>(&'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                // XML 1.0 forbids most control characters even escaped: drop them.
                c if c.is_control() => {}
                c => write!(f, "{c}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_runs_merge_each_row() {
        let rows = ["#####", "#..##", "#####"];
        let picture = Picture::new(3, 5, |r, c| rows[r].as_bytes()[c] == b'#');
        assert_eq!(
            picture.wall_runs,
            [(0, 0, 5), (1, 0, 1), (1, 3, 2), (2, 0, 5)]
        );
    }

    #[test]
    fn key_times_increase_strictly() {
        for count in [1, 2, 3, 7, 999, 1000, 1001, 25_000] {
            let keys = KeyTimes::new(count, Timing::default()).to_string();
            let times: Vec<f64> = keys
                .split(';')
                .map(|t| format!("0{t}").parse().unwrap())
                .collect();
            assert_eq!(times.len(), count);
            assert_eq!(times[0], 0.0);
            assert!(times.windows(2).all(|w| w[0] < w[1]), "{count}: {keys}");
            assert!(times[count - 1] < 1.0);
        }
    }

    #[test]
    fn palette_colours_differ() {
        let colours: Vec<Colour> = (0..26).map(Colour::palette).collect();
        for (i, a) in colours.iter().enumerate() {
            for b in &colours[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn labels_are_escaped() {
        assert_eq!(Escaped("a<&>\"b\u{1}").to_string(), "a&lt;&amp;&gt;&quot;b");
    }
}
