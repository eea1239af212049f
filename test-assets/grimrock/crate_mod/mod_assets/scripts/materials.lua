-- Materials of the crate test mod (written by make-textured-assets.mjs)

defineObject{
	name = "test_crate",
	class = "Blockage",
	model = "mod_assets/models/crate.fbx",
}

-- the crate: diffuse and specular shipped, the normal map is a base-game file the mod does not ship
defineMaterial{
	name = "crate",
	diffuseMap = "mod_assets/textures/crate_dif.tga",
	specularMap = "mod_assets/textures/crate_spec.tga",
	normalMap = "assets/textures/common/crate_normal.tga",
	doubleSided = false,
	lighting = true,
	alphaTest = false,
	blendMode = "Opaque",
	textureAddressMode = "Wrap",
	glossiness = 20,
	depthBias = 0,
}

-- not used by crate.model
defineMaterial{
	name = "crate_glow",
	emissiveMap = "mod_assets/textures/crate_dif.tga",
	blendMode = "Additive",
	lighting = false,
}
