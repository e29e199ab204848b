-- 0006: the stored text of mail with mails attached whole ("forward as
-- attachment") holds the attached mails' text too since the store began
-- keeping it (storedText); mail stored before then is given it by this
-- migration's Go step (restoreAttachedText), which reads those messages'
-- raw bytes again. Only messages with such an attachment are read.
SELECT 1;
