// Writes test-assets/unigine/two_surfaces.mat and textures/floor_d.dds: a material library for
// two_surfaces.mesh (surfaces `floor` and `sign`) and an 8×8 DXT1 texture built block by block.
// Deterministic; run from packages/unigine: `node scripts/make-material-assets.mjs`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '../../../test-assets/unigine');
mkdirSync(join(dir, 'textures'), { recursive: true });

// DDS header (124 bytes after the magic): CAPS|HEIGHT|WIDTH|PIXELFORMAT|LINEARSIZE, 8×8, DXT1.
const header = new DataView(new ArrayBuffer(128));
const ascii = (o, s) => {
  for (let i = 0; i < s.length; i++) header.setUint8(o + i, s.charCodeAt(i));
};
ascii(0, 'DDS ');
header.setUint32(4, 124, true);
header.setUint32(8, 0x81007, true);
header.setUint32(12, 8, true); // height
header.setUint32(16, 8, true); // width
header.setUint32(20, 32, true); // linear size: 4 blocks × 8 bytes
header.setUint32(76, 32, true); // pixel format size
header.setUint32(80, 4, true); // DDPF_FOURCC
ascii(84, 'DXT1');
header.setUint32(108, 0x1000, true); // DDSCAPS_TEXTURE
// Blocks (left to right, top to bottom): colour0, colour1 (RGB565), 2-bit indices (pixel 0 lowest).
// colour0 > colour1: four opaque colours (c0, c1, (2c0+c1)/3, (c0+2c1)/3).
const blocks = [
  [0xf800, 0x001f, 0x00000000], // all red (index 0)
  [0xf800, 0x001f, 0x55555555], // all blue (index 1)
  [0x07e0, 0x0000, 0x00000000], // all green
  [0xffff, 0x0000, 0xe4e4e4e4], // each row: white, black, 2/3 grey, 1/3 grey
];
const body = new DataView(new ArrayBuffer(blocks.length * 8));
blocks.forEach(([c0, c1, idx], i) => {
  body.setUint16(i * 8, c0, true);
  body.setUint16(i * 8 + 2, c1, true);
  body.setUint32(i * 8 + 4, idx, true);
});
const dds = new Uint8Array(128 + body.byteLength);
dds.set(new Uint8Array(header.buffer), 0);
dds.set(new Uint8Array(body.buffer), 128);
writeFileSync(join(dir, 'textures/floor_d.dds'), dds);

// The library, formatted as our exporter formats new libraries (tabs, LF), so that an import →
// export of two_surfaces.mesh with it writes it back byte for byte.
const mat = `<?xml version="1.0" encoding="utf-8"?>
<materials version="1.11">
	<material name="floor" parent="mesh_base">
		<state name="alpha_fade">0</state>
		<parameter name="diffuse_color">0.5 0.75 1 1</parameter>
		<parameter name="gloss">0.25</parameter>
		<texture name="diffuse" anisotropy="1">textures/floor_d.dds</texture>
		<options alpha_test="1"/>
	</material>
	<material name="sign" parent="mesh_base" editable="0">
		<!-- an emissive, blended, two-sided sign -->
		<state name="emission">1</state>
		<parameter name="emission_color">1 0.5 0 1</parameter>
		<parameter name="emission_scale">2</parameter>
		<options two_sided="1"/>
		<blend src="src_alpha" dest="one_minus_src_alpha"/>
	</material>
</materials>
`;
writeFileSync(join(dir, 'two_surfaces.mat'), mat);
