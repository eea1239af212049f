class cube extends Actor;

#exec MESH IMPORT MESH=cube ANIVFILE=MODELS\cube_a.3d DATAFILE=MODELS\cube_d.3d X=0 Y=0 Z=0
#exec MESH ORIGIN MESH=cube X=0 Y=0 Z=-100

#exec MESH SEQUENCE MESH=cube SEQ=Still STARTFRAME=0 NUMFRAMES=1 RATE=1
#exec MESH SEQUENCE MESH=cube SEQ=Pulse STARTFRAME=1 NUMFRAMES=8 RATE=10
#exec MESH NOTIFY MESH=cube SEQ=Pulse TIME=0.5 FUNCTION=Beat

#exec MESHMAP NEW MESHMAP=cube MESH=cube
#exec MESHMAP SCALE MESHMAP=cube X=0.1 Y=0.1 Z=0.2

#exec TEXTURE IMPORT NAME=CubeSides FILE=Textures\cube_sides.pcx GROUP=Skins
#exec TEXTURE IMPORT NAME=CubeCaps FILE=Textures\cube_caps.pcx GROUP=Skins
#exec MESHMAP SETTEXTURE MESHMAP=cube NUM=0 TEXTURE=CubeSides
#exec MESHMAP SETTEXTURE MESHMAP=cube NUM=1 TEXTURE=CubeCaps

defaultproperties
{
    DrawType=DT_Mesh
    Mesh=cube
}
