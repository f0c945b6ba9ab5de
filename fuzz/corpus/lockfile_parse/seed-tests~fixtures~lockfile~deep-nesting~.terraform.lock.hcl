prpr= {
prpr= {
- ve-rexample.cdor =0
   ve =  {
-r =0
   ve -r==0-r==  {
-r =0
   ve%-r== {
- ve-r==  {
- ve-=0-r==  {
e -r=0//.- ve-rexample.cdoexample.cdor =0
   ve =  {
-r =0
   ve -r==0-r==  {
-r =0
   ve%-r== {
- ve-r==  {
- ve-=0-r==  {
e -r=0//.- ve-rexample.cdor =0
   ve =  {
-r =0
   ve -r==0-r==  {
-r =0
   ve%-r== {
- ve-r==  {
- ve-=0-r==  {
e -r=0//.0"(}
//.0"r =0
   ve =  {
-r =0
   ve -rrexample.cdor =0
   ve =  {
-r =0
   ve -r==0-r==  {
-r =0
   ve%-r== {
- ve-r==  {
- ve-=0-r==  {
e -r=0//.- ve-rexample.cdoexample.cdor =0
   ve =  {
-r =0
   ve -r==0-r==  {
-r =0
   ve%-r== {
- ve-r==  {
- ve-=0-r==  {
e -r=0//.- ve-rexample.cdor =0
   ve =  {
-r =0
   ve -r==0-r==  {
-r =0
   ve%-r== {
- ve-r==  {
- ve-=0-r==  {
e -r=0//.0"(}
//.0"r =0==0-r==  {
-r =0
   ve%-r== {
- ve-r==  {
- ve-=0-r==  {
e -r=0//.0"(}
//.0"}
