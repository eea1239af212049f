class blade extends Actor;

#exec MESH IMPORT MESH=blade ANIVFILE=MODELS\blade_a.3d DATAFILE=MODELS\blade_d.3d X=0 Y=0 Z=0
#exec MESH ORIGIN MESH=blade X=0 Y=0 Z=0

#exec MESH SEQUENCE MESH=blade SEQ=Swing STARTFRAME=0 NUMFRAMES=6 RATE=12

#exec MESHMAP NEW MESHMAP=blade MESH=blade
#exec MESHMAP SCALE MESHMAP=blade X=0.003125 Y=0.003125 Z=0.003125

#exec TEXTURE IMPORT NAME=BladeSkin FILE=Textures\blade.pcx GROUP=Skins
#exec TEXTURE IMPORT NAME=GuardGlow FILE=Textures\glow.pcx GROUP=Skins
#exec MESHMAP SETTEXTURE MESHMAP=blade NUM=0 TEXTURE=BladeSkin
#exec MESHMAP SETTEXTURE MESHMAP=blade NUM=1 TEXTURE=GuardGlow

defaultproperties
{
    DrawType=DT_Mesh
    Mesh=blade
}
