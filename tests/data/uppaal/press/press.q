//This file was generated from (Academic) UPPAAL 5.0.0 (rev. 714BA9DB36F49691), 2023

/*
heated
*/
A[] Press.press imply h >= 3

/*
A part pressed before it is hot.
*/
E<> Press.press and h < 3

/*
The shortest heating.
*/
inf{Press.press}: h

/*
The longest heating.
*/
sup{Press.heat}: h, parts

/*
Only the finished press is stuck.
*/
A[] deadlock imply Press.done

/*
The press can run for ever.
*/
E[] not deadlock

/*
Every run ends stuck.
*/
A<> deadlock

/*
Once done, it is stuck.
*/
Press.done --> deadlock

/*
Four parts make the press finish.
*/
parts == 4 --> Press.done
